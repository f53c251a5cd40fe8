//! The class registry: every `#[derive(Entity)]` type registers itself (through
//! `inventory`), and the runtime finds a class by name or name CRC without a hand-kept
//! list.
//!
//! Names are keys (ASCII case and `_` ignored) and a class answers to its name and its
//! aliases (former names). Two classes that answer to one name are an error, with one
//! exception: a stock kind ([`StockClass`], the kinds `juliet-entities` ships) yields its
//! name to a game's class, which then replaces it (a game may define its own
//! `Projectile`).

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::class::Class;
use crate::crc::key_crc_runtime;
use crate::error::{Error, ErrorKind};

/// One registered class; the derive submits one per type.
#[derive(Debug)]
pub struct ClassRegistration {
    /// The class.
    pub class: &'static Class,
}

inventory::collect!(ClassRegistration);

/// Marks a registered class as a stock kind: in [`Registry::global`], a game's class
/// with the same name (or an alias of it) replaces it. `juliet-entities` submits one for
/// each of its stock kinds.
#[derive(Debug)]
pub struct StockClass {
    /// The stock class (also registered through [`ClassRegistration`]).
    pub class: &'static Class,
}

inventory::collect!(StockClass);

/// A stock kind that a game's class replaced.
#[derive(Debug, Clone, Copy)]
pub struct Replacement {
    /// The stock class, no longer registered.
    pub stock: &'static Class,
    /// The game's class that took its name.
    pub by: &'static Class,
}

/// Classes by name CRC (names and aliases).
#[derive(Debug, Default)]
pub struct Registry {
    by_crc: HashMap<u32, &'static Class>,
    classes: Vec<&'static Class>,
    replaced: Vec<Replacement>,
}

impl Registry {
    /// A registry of `classes`.
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateClass`] naming both Rust types when two classes share a
    /// name (or alias) or its CRC.
    pub fn new(classes: impl IntoIterator<Item = &'static Class>) -> Result<Registry, Error> {
        Registry::with_stock(classes, [])
    }

    /// A registry of `classes` in which those also listed in `stock` give way: a stock
    /// class is left out, and recorded in [`Registry::replaced`], when one of the other
    /// classes answers to its name or one of its aliases.
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateClass`] when two classes that are not stock (or two stock
    /// ones) answer to one name, or names differ but their CRCs are equal.
    pub fn with_stock(
        classes: impl IntoIterator<Item = &'static Class>,
        stock: impl IntoIterator<Item = &'static Class>,
    ) -> Result<Registry, Error> {
        let stock: Vec<&'static Class> = stock.into_iter().collect();
        let is_stock = |c: &'static Class| stock.iter().any(|s| std::ptr::eq(*s, c));
        let (stock_classes, game): (Vec<_>, Vec<_>) =
            classes.into_iter().partition(|c| is_stock(c));
        let mut registry = Registry::default();
        for class in game {
            registry.add(class)?;
        }
        for class in stock_classes {
            let taken_by = std::iter::once(class.name())
                .chain(class.aliases().iter().map(|a| a.name))
                .find_map(|name| registry.find_by_name(name));
            match taken_by {
                Some(by) => registry.replaced.push(Replacement { stock: class, by }),
                None => registry.add(class)?,
            }
        }
        Ok(registry)
    }

    /// Adds one class, under its name and its aliases.
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateClass`] when one of those CRCs is taken by another class
    /// (the registry is then unchanged).
    pub fn add(&mut self, class: &'static Class) -> Result<(), Error> {
        let crcs = || std::iter::once(class.crc()).chain(class.aliases().iter().map(|a| a.crc));
        if self
            .by_crc
            .get(&class.crc())
            .is_some_and(|c| std::ptr::eq(*c, class))
        {
            return Ok(());
        }
        for crc in crcs() {
            if let Some(&existing) = self.by_crc.get(&crc) {
                return Err(duplicate(existing, class, crc));
            }
        }
        // A class whose own name and alias are one key is the derive's error; a hand-made
        // one is refused here rather than registered twice under one CRC.
        let mut seen: Vec<u32> = crcs().collect();
        seen.sort_unstable();
        if seen.windows(2).any(|w| w[0] == w[1]) {
            return Err(duplicate(class, class, class.crc()));
        }
        for crc in crcs() {
            self.by_crc.insert(crc, class);
        }
        self.classes.push(class);
        Ok(())
    }

    /// The registry of every class registered by the derive in the program, built on
    /// first use; stock kinds ([`StockClass`]) that a game's class replaces are left out.
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateClass`] (the same error on every call).
    pub fn global() -> Result<&'static Registry, Error> {
        static GLOBAL: OnceLock<Result<Registry, Error>> = OnceLock::new();
        GLOBAL
            .get_or_init(|| {
                Registry::with_stock(
                    inventory::iter::<ClassRegistration>().map(|r| r.class),
                    inventory::iter::<StockClass>().map(|s| s.class),
                )
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The class named `name`, or that has `name` as an alias (ASCII case and `_`
    /// ignored).
    pub fn find_by_name(&self, name: &str) -> Option<&'static Class> {
        self.find_by_crc(key_crc_runtime(name.as_bytes()))
            .filter(|c| c.answers_to(name))
    }

    /// The class whose name CRC (or an alias's) is `crc`.
    pub fn find_by_crc(&self, crc: u32) -> Option<&'static Class> {
        self.by_crc.get(&crc).copied()
    }

    /// Every class, in registration order.
    pub fn classes(&self) -> &[&'static Class] {
        &self.classes
    }

    /// The stock kinds that a game's class replaced, and by which.
    pub fn replaced(&self) -> &[Replacement] {
        &self.replaced
    }
}

/// The error for two classes under one CRC, the Rust types in a stable order.
fn duplicate(a: &'static Class, b: &'static Class, crc: u32) -> Error {
    let (a, b) = (a.type_name(), b.type_name());
    let (first, second) = if a <= b { (a, b) } else { (b, a) };
    Error::file("", ErrorKind::DuplicateClass { first, second, crc })
}

#[cfg(test)]
#[allow(unsafe_code)] // a hand-written `Reflect` impl
mod tests;
