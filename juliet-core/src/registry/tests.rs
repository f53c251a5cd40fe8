//! Registry rules: names and aliases are keys, a stock kind yields its name to a game
//! class, two game classes with one name are an error.

use super::*;
use crate::archive::Archive;
use crate::class::Reflect;
use crate::crc::Key;

/// A type with no properties, for classes that only differ by name.
struct Plain;

// SAFETY: the table describes `Plain`'s own fields (offset_of! each, with its type's operations).
unsafe impl Reflect for Plain {
    // SAFETY: as the impl's.
    const CLASS: &'static Class = &unsafe { Class::of::<Plain>("Plain", 1, &[], &[]) };
    fn default_value() -> Self {
        Plain
    }
    fn clone_value(&self) -> Self {
        Plain
    }
    fn save(&self, _: &mut Archive<'_>) {}
    fn load(&mut self, _: &mut Archive<'_>) -> Result<(), Error> {
        Ok(())
    }
}

fn class(name: &'static str, aliases: &'static [Key]) -> &'static Class {
    Box::leak(Box::new(
        // SAFETY: an empty table describes no field.
        unsafe { Class::of::<Plain>(name, 1, &[], &[]) }.with_aliases(aliases),
    ))
}

fn is_duplicate(result: Result<Registry, Error>) -> bool {
    matches!(
        result.map(|_| ()).unwrap_err().kind,
        ErrorKind::DuplicateClass { .. }
    )
}

#[test]
fn a_game_class_replaces_the_stock_kind_of_its_name_in_any_spelling() {
    let (inert, projectile) = (class("Inert", &[]), class("Projectile", &[]));
    let game_projectile = class("projectile", &[]);
    let game_inert = class("IN_ERT", &[]);
    let door = class("Door", &[]);
    let registry = Registry::with_stock(
        [inert, projectile, game_projectile, game_inert, door],
        [inert, projectile],
    )
    .unwrap();
    assert!(std::ptr::eq(
        registry.find_by_name("Projectile").unwrap(),
        game_projectile
    ));
    assert!(std::ptr::eq(
        registry.find_by_name("inert").unwrap(),
        game_inert
    ));
    assert!(std::ptr::eq(registry.find_by_name("DOOR").unwrap(), door));
    assert_eq!(registry.classes().len(), 3);
    let replaced: Vec<(&str, &str)> = registry
        .replaced()
        .iter()
        .map(|r| (r.stock.name(), r.by.name()))
        .collect();
    assert_eq!(
        replaced,
        [("Inert", "IN_ERT"), ("Projectile", "projectile")]
    );
}

#[test]
fn stock_kinds_stay_when_no_game_class_takes_their_name() {
    let (inert, game) = (class("Inert", &[]), class("Torch", &[]));
    let registry = Registry::with_stock([inert, game], [inert]).unwrap();
    assert!(std::ptr::eq(registry.find_by_name("Inert").unwrap(), inert));
    assert!(registry.replaced().is_empty());
}

#[test]
fn a_game_class_renamed_from_a_stock_name_replaces_it_through_its_alias() {
    static OLD: &[Key] = &[Key::new("Projectile")];
    let stock = class("Projectile", &[]);
    let bullet = class("Bullet", OLD);
    let registry = Registry::with_stock([stock, bullet], [stock]).unwrap();
    assert!(std::ptr::eq(
        registry.find_by_name("projectile").unwrap(),
        bullet
    ));
    assert!(std::ptr::eq(
        registry.find_by_name("Bullet").unwrap(),
        bullet
    ));
}

#[test]
fn two_game_classes_with_one_name_or_alias_are_an_error() {
    static MONSTER: &[Key] = &[Key::new("Monster")];
    let stock = class("Projectile", &[]);
    assert!(is_duplicate(Registry::with_stock(
        [stock, class("Projectile", &[]), class("PROJECTILE", &[])],
        [stock],
    )));
    assert!(is_duplicate(Registry::new([
        class("Monster", &[]),
        class("Monster2", MONSTER)
    ])));
    assert!(is_duplicate(Registry::new([
        class("Orc", MONSTER),
        class("Troll", MONSTER)
    ])));
    // A class whose alias is its own name.
    static SELF_ALIAS: &[Key] = &[Key::new("orc")];
    assert!(is_duplicate(Registry::new([class("Orc", SELF_ALIAS)])));
}

#[test]
fn aliases_find_the_class_and_are_names_of_it() {
    static OLD: &[Key] = &[Key::new("Monster"), Key::new("Beast")];
    let monster = class("Monster2", OLD);
    let registry = Registry::new([monster]).unwrap();
    for name in ["Monster2", "monster", "BEAST"] {
        assert!(
            std::ptr::eq(registry.find_by_name(name).unwrap(), monster),
            "{name}"
        );
    }
    assert!(registry.find_by_name("Monster3").is_none());
    assert!(std::ptr::eq(
        registry.find_by_crc(Key::new("Beast").crc).unwrap(),
        monster
    ));
    assert!(monster.answers_to("mon_ster") && !monster.answers_to("Mon"));
}

#[test]
fn adding_a_class_again_is_a_no_op_and_a_failed_add_changes_nothing() {
    static OLD: &[Key] = &[Key::new("Ogre"), Key::new("Torch")];
    let (torch, ogre) = (class("Torch", &[]), class("Monster", OLD));
    let mut registry = Registry::new([torch]).unwrap();
    registry.add(torch).unwrap();
    assert_eq!(registry.classes().len(), 1);
    // `Ogre` is free but `Torch` is not: nothing of `Monster` is registered.
    assert!(registry.add(ogre).is_err());
    assert!(registry.find_by_name("Ogre").is_none() && registry.find_by_name("Monster").is_none());
    assert_eq!(registry.classes().len(), 1);
}
