//! The class registry: every `#[derive(Entity)]` type registers itself (through
//! `inventory`), and the runtime finds a class by name or name CRC without a hand-kept
//! list.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::class::Class;
use crate::crc::{key_crc_runtime, keys_equal};
use crate::error::{Error, ErrorKind};

/// One registered class; the derive submits one per type.
#[derive(Debug)]
pub struct ClassRegistration {
    /// The class.
    pub class: &'static Class,
}

inventory::collect!(ClassRegistration);

/// Classes by name CRC.
#[derive(Debug, Default)]
pub struct Registry {
    by_crc: HashMap<u32, &'static Class>,
    classes: Vec<&'static Class>,
}

impl Registry {
    /// A registry of `classes`.
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateClass`] naming both Rust types when two classes share a
    /// name or a name CRC.
    pub fn new(classes: impl IntoIterator<Item = &'static Class>) -> Result<Registry, Error> {
        let mut registry = Registry::default();
        for class in classes {
            registry.add(class)?;
        }
        Ok(registry)
    }

    /// Adds one class.
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateClass`] when its name CRC is taken by another class.
    pub fn add(&mut self, class: &'static Class) -> Result<(), Error> {
        if let Some(existing) = self.by_crc.get(&class.crc) {
            if std::ptr::eq(*existing, class) {
                return Ok(());
            }
            let (a, b) = ((existing.type_name)(), (class.type_name)());
            let (first, second) = if a <= b { (a, b) } else { (b, a) };
            return Err(Error::file(
                "",
                ErrorKind::DuplicateClass {
                    first,
                    second,
                    crc: class.crc,
                },
            ));
        }
        self.by_crc.insert(class.crc, class);
        self.classes.push(class);
        Ok(())
    }

    /// The registry of every class registered by the derive in the program, built on
    /// first use.
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateClass`] (the same error on every call).
    pub fn global() -> Result<&'static Registry, Error> {
        static GLOBAL: OnceLock<Result<Registry, Error>> = OnceLock::new();
        GLOBAL
            .get_or_init(|| Registry::new(inventory::iter::<ClassRegistration>().map(|r| r.class)))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The class named `name` (ASCII case and `_` ignored).
    pub fn find_by_name(&self, name: &str) -> Option<&'static Class> {
        self.find_by_crc(key_crc_runtime(name.as_bytes()))
            .filter(|c| keys_equal(c.name, name))
    }

    /// The class whose name CRC is `crc`.
    pub fn find_by_crc(&self, crc: u32) -> Option<&'static Class> {
        self.by_crc.get(&crc).copied()
    }

    /// Every class, in registration order.
    pub fn classes(&self) -> &[&'static Class] {
        &self.classes
    }
}
