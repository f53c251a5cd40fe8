//! [`EntityRef`]: a field that refers to another entity of the world by its id, typed by
//! the kind it refers to, and what resolves and checks it (docs/design.md, section 5.8).

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

use juliet_core::{Codec, Element, MapKey, PropertyType, Reflect, Token, Value, ValueError};

use crate::entity::{Entity, EntityId};
use crate::manager::EntityManager;

/// The kind an [`EntityRef`] refers to: an entity kind (any [`Reflect`] type), or
/// [`AnyKind`] for a reference to an entity of any kind.
pub trait RefKind: 'static {
    /// The class name the referred entity must have (`None`: any).
    const KIND: Option<&'static str>;
}

impl<T: Reflect> RefKind for T {
    const KIND: Option<&'static str> = Some(T::CLASS.name());
}

/// The kind of an untyped [`EntityRef`]: a reference to an entity of any kind.
#[derive(Debug)]
pub enum AnyKind {}

impl RefKind for AnyKind {
    const KIND: Option<&'static str> = None;
}

/// A reference to another entity of the world: its [`EntityId`], and the kind it must
/// be (`EntityRef<Switch>`), or any kind (`EntityRef`, that is `EntityRef<AnyKind>`).
///
/// Written in files as the target's id, `0x` + 16 hex digits (decimal read too);
/// `Option<EntityRef<T>>` is an optional reference (`~` for none). The reference is an
/// id, not a pointer: [`EntityManager::resolve`] finds the entity (O(1)), and gives
/// `None` once it is gone. [`crate::World::load`] and `jasset check` report, with the
/// file, line and column, a reference to an id the world has no entity for and one to
/// an entity of another kind ([`crate::World::reference_warnings`]). The default is id
/// 0, which no entity has: a field that must refer to something is reported until set.
///
/// ```
/// use juliet_entities::prelude::*;
/// use juliet_entities::EntityRef;
/// use juliet_entities::glam::Vec3;
///
/// #[derive(Entity)]
/// struct Switch {
///     on: bool,
/// }
///
/// #[derive(Entity)]
/// struct Door {
///     opens_with: EntityRef<Switch>,
///     alarm: Option<EntityRef>,
/// }
///
/// let mut manager = EntityManager::new();
/// let switch = manager.make_entity::<Switch>(Vec3::ZERO);
/// let door = manager.make_entity::<Door>(Vec3::X);
/// manager.get_mut::<Door>(door).unwrap().opens_with = EntityRef::new(switch);
///
/// let target = manager.get::<Door>(door).unwrap().opens_with;
/// assert!(!manager.resolve(target).unwrap().on);
/// manager.resolve_mut(target).unwrap().on = true;
/// assert_eq!(manager.property_text(door, "OpensWith")?, switch.to_string());
/// # Ok::<(), juliet_entities::juliet_core::Error>(())
/// ```
pub struct EntityRef<T: RefKind = AnyKind> {
    id: EntityId,
    kind: PhantomData<fn() -> T>,
}

impl<T: RefKind> EntityRef<T> {
    /// A reference to entity `id`.
    pub const fn new(id: EntityId) -> EntityRef<T> {
        EntityRef {
            id,
            kind: PhantomData,
        }
    }

    /// The id referred to.
    pub const fn id(self) -> EntityId {
        self.id
    }

    /// The same reference, to an entity of any kind.
    pub const fn untyped(self) -> EntityRef {
        EntityRef::new(self.id)
    }
}

impl<T: RefKind> From<EntityId> for EntityRef<T> {
    fn from(id: EntityId) -> EntityRef<T> {
        EntityRef::new(id)
    }
}

// By hand: the derives would ask the same of `T`, which is only a marker.
impl<T: RefKind> Clone for EntityRef<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: RefKind> Copy for EntityRef<T> {}

impl<T: RefKind> Default for EntityRef<T> {
    fn default() -> Self {
        EntityRef::new(EntityId(0))
    }
}

impl<T: RefKind> PartialEq for EntityRef<T> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl<T: RefKind> Eq for EntityRef<T> {}

impl<T: RefKind> PartialOrd for EntityRef<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: RefKind> Ord for EntityRef<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.id.cmp(&other.id)
    }
}

impl<T: RefKind> Hash for EntityRef<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

impl<T: RefKind> fmt::Debug for EntityRef<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match T::KIND {
            Some(kind) => write!(f, "EntityRef<{kind}>({})", self.id),
            None => write!(f, "EntityRef({})", self.id),
        }
    }
}

impl<T: RefKind> Codec for EntityRef<T> {
    const PROPERTY_TYPE: PropertyType = PropertyType::Reference(T::KIND);

    fn encode(&self, out: &mut String) {
        self.id.encode(out);
    }

    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        EntityId::decode(value).map(EntityRef::new)
    }
}

impl<T: RefKind> Element for EntityRef<T> {
    const TOKEN: bool = true;
}

impl<T: RefKind> Token for EntityRef<T> {}

impl<T: RefKind> MapKey for EntityRef<T> {}

impl EntityManager {
    /// The entity `r` refers to, if the manager has it and it is a `T`. O(1).
    pub fn resolve<T: Reflect>(&self, r: EntityRef<T>) -> Option<&T> {
        self.get::<T>(r.id)
    }

    /// The entity `r` refers to, mutably ([`EntityManager::resolve`]).
    pub fn resolve_mut<T: Reflect>(&mut self, r: EntityRef<T>) -> Option<&mut T> {
        self.get_mut::<T>(r.id)
    }

    /// The base record of the entity `r` refers to (of any kind), if the manager has it.
    pub fn resolve_entity<T: RefKind>(&self, r: EntityRef<T>) -> Option<&Entity> {
        self.entity(r.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::Inert;

    #[test]
    fn a_reference_is_written_as_the_id_and_read_back() {
        let r: EntityRef<Inert> = EntityRef::new(EntityId(0x42));
        let mut text = String::new();
        r.encode(&mut text);
        assert_eq!(text, "0x0000000000000042");
        assert_eq!(EntityRef::<Inert>::decode(Value::from_text(&text)), Ok(r));
        assert_eq!(
            EntityRef::<Inert>::decode(Value::from_text("66")).map(EntityRef::id),
            Ok(EntityId(66))
        );
        assert!(EntityRef::<Inert>::decode(Value::from_text("door")).is_err());
        assert_eq!(
            <EntityRef<Inert> as Codec>::PROPERTY_TYPE,
            PropertyType::Reference(Some("Inert"))
        );
        assert_eq!(
            <EntityRef as Codec>::PROPERTY_TYPE,
            PropertyType::Reference(None)
        );
    }

    #[test]
    fn resolve_finds_the_entity_of_its_kind_only() {
        let mut manager = EntityManager::new();
        let rock = manager.make_entity::<Inert>(glam::Vec3::ZERO);
        manager.get_mut::<Inert>(rock).unwrap().mass = 5.0;
        let r: EntityRef<Inert> = rock.into();
        assert_eq!(manager.resolve(r).map(|i| i.mass), Some(5.0));
        manager.resolve_mut(r).unwrap().mass = 6.0;
        assert_eq!(manager.get::<Inert>(rock).unwrap().mass, 6.0);
        assert_eq!(
            manager.resolve_entity(r.untyped()).map(Entity::id),
            Some(rock)
        );
        let gone = EntityRef::<Inert>::new(EntityId(0x99));
        assert!(manager.resolve(gone).is_none());
        let other = EntityRef::<crate::kinds::Collectible>::new(rock);
        assert!(manager.resolve(other).is_none());
    }
}
