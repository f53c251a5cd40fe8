//! [`Class`] descriptors and the [`Reflect`] trait that `#[derive(Entity)]` implements,
//! with the `Reflect`-typed entry points to the type-erased layer ([`crate::erased`]):
//! [`Class::of`] and the typed property access ([`PropertyDescriptor::encode`],
//! [`PropertyDescriptor::decode_into`], [`PropertyDescriptor::same_value`],
//! [`PropertyDescriptor::copy_value`]).
//!
//! docs/design.md, sections 3.1 (`Class` with its version and property table) and 3.2
//! (the default init stub); the property table (key, key CRC, offset, type) is what the
//! template code walks.
//!
//! `erased` knows a class's Rust type only through its crate-private `ClassType` trait,
//! implemented here for every `Reflect` type, so this module depends on `erased` and not
//! the other way round.

use crate::archive::Archive;
use crate::crc::{key_crc, Key};
use crate::erased::{ClassOps, ClassType, RuntimeClass};
use crate::error::Error;
use crate::value::{Value, ValueError};

/// The descriptor of one property, defined in [`crate::erased`] with its type-erased
/// operations; its `Reflect`-typed access is below.
pub(crate) use crate::erased::PropertyDescriptor;

/// A type with a [`Class`] descriptor: what `#[derive(Entity)]` implements.
///
/// The derive's impl is the only one a game needs, and it compiles in a crate under
/// `#![forbid(unsafe_code)]`. Implementing it by hand is possible (the derive's output
/// is the reference), but the derive also checks keys, versions and attributes at
/// compile time.
///
/// # Safety
///
/// Type-erased code (entity storage, template copies, property access by key) reads and
/// writes fields through the property tables by offset, trusting them. An impl must
/// make [`Reflect::CLASS`]`.properties()` describe fields of `Self` exactly: each
/// descriptor's offset is that of a field of `Self` whose type is the one its
/// operations were made for ([`PropertyDescriptor::new::<F>`] with the field's type
/// `F`). A safe trait would let safe code hand the runtime a table that lies, which is
/// why this one is `unsafe`. (A class whose layout is known only at run time, such as
/// one read from a schema file, is no Rust type: see [`Class::runtime`].)
///
/// `Send + Sync` because the runtime keeps values of every registered type in type-erased
/// storage that moves between threads with its world (a world loaded on a background
/// thread, or kept in an `Arc<Mutex<_>>`): a type with a field that is not (an `Rc`, a
/// `Cell`, a raw handle of a single-threaded API) is refused at compile time. Keep such
/// state beside the entity, e.g. in a map by entity id owned by the thread that uses it.
pub unsafe trait Reflect: Sized + Send + Sync + 'static {
    /// The class descriptor.
    const CLASS: &'static Class;

    /// The default-init stub (docs/design.md, section 3.2): every field at its declared default
    /// (`#[jasset(default = ...)]`, else `Default::default()`).
    fn default_value() -> Self;

    /// A copy: properties cloned, skipped fields at their defaults.
    fn clone_value(&self) -> Self;

    /// Clone-assigns from `src` the properties in `set`, a bitset over the property
    /// table ([`Class::properties`]): property `i` is bit `i % 64` of `set[i / 64]`;
    /// missing words are zero and bits past the table are ignored. What a template
    /// delta does to a new instance (docs/design.md, section 7.3, step 4).
    ///
    /// The provided version walks the table ([`PropertyDescriptor::copy_value`]); the
    /// derive writes it field by field, with no table and no indirect call.
    fn copy_properties(&mut self, src: &Self, set: &[u64]) {
        let table = Self::CLASS.properties();
        for (w, &word) in set.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let index = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Some(property) = table.get(index) {
                    property.copy_value(self, src);
                }
            }
        }
    }

    /// Writes `ClassVersion` and every property, in declaration order.
    fn save(&self, ar: &mut Archive<'_>);

    /// Reads the properties present in the archive over the current values (missing keys
    /// keep them), then runs the migration when the file's class version is older.
    ///
    /// The derive writes it as one walk over the file's properties in file order
    /// ([`crate::Properties`]), one `match` arm a property, then
    /// [`Archive::resolve_class_version`] and the migration. A hand-written loader
    /// may read the archive any way: [`Archive::serialize`] completes the document
    /// first, and a loader that looks at the whole [`crate::Document`] itself (its
    /// `nodes`, `find`, `unconsumed`, ...) calls [`crate::Document::complete`] first,
    /// since a document from [`crate::TokenBuffer::document`] is filled as it is read.
    ///
    /// # Errors
    /// The first bad value ([`crate::ErrorKind::BadValue`]), a duplicate key, the
    /// tokenizer's errors on a file not in canonical form, or a failed migration.
    fn load(&mut self, ar: &mut Archive<'_>) -> Result<(), Error>;
}

/// A type's descriptor: name, name CRC, version, layout, property table, deprecated keys
/// and the type-erased operations the runtime needs.
///
/// Its fields are private and set only by [`Class::of`] (an `unsafe fn`, whose caller
/// vouches that the table describes the type, as `#[derive(Entity)]` does) and
/// [`Class::runtime`] (which checks the table of a class defined at run time), so
/// type-erased code may trust what a `Class` says: the property table it walks by
/// offset, the layout it allocates by and the key it downcasts by are those of the
/// values it holds.
#[derive(Debug)]
pub struct Class {
    name: &'static str,
    crc: u32,
    aliases: &'static [Key],
    version: u32,
    properties: &'static [PropertyDescriptor],
    deprecated: &'static [Key],
    type_name: fn() -> &'static str,
    ops: ClassOps,
}

impl Class {
    /// The descriptor of `T` named `name` (the derive's, in a `const`): version
    /// `version`, property table `properties`, deprecated keys `deprecated`.
    ///
    /// # Safety
    /// Type-erased code reads and writes fields of `T` through `properties` by offset,
    /// trusting it: each descriptor's offset must be that of a field of `T` whose type
    /// is the one its operations were made for ([`PropertyDescriptor::new::<F>`] with
    /// the field's type `F`). An empty table is always right.
    ///
    /// It is how a `Reflect` impl makes its own `CLASS` (`T::CLASS` is the class this
    /// returns). The class's operations set, compare and copy a property by its index in
    /// `T::CLASS.properties()`, so a class of `T` with another table (one that also
    /// describes `T`) would reach other fields than its table names, never unsound ones.
    pub const unsafe fn of<T: Reflect>(
        name: &'static str,
        version: u32,
        properties: &'static [PropertyDescriptor],
        deprecated: &'static [Key],
    ) -> Class {
        let type_name = std::any::type_name::<T>;
        Class::with(
            name,
            version,
            properties,
            deprecated,
            type_name,
            ClassOps::of::<T>(),
        )
    }

    /// The descriptor of a class defined at run time by `class` (one read from a schema
    /// file): named `name`, version `version`, deprecated keys `deprecated`, its values
    /// `[R::Value; n]` for the `n` entries of `class.properties()`, which is read once
    /// and checked. The class's operations keep a small record of it for the life of the
    /// program, as `class` itself lives.
    ///
    /// # Panics
    /// When entry `i` of the table is not at offset `i * size_of::<R::Value>()`, not of
    /// that size, or not made for `R::Value`: storage would then reach outside the
    /// values or misread them.
    ///
    /// An example is [`RuntimeClass`]'s.
    pub fn runtime<R: RuntimeClass>(
        name: &'static str,
        version: u32,
        class: &'static R,
        deprecated: &'static [Key],
    ) -> Class {
        let (ops, properties) = ClassOps::runtime(class);
        let type_name = std::any::type_name::<R>;
        Class::with(name, version, properties, deprecated, type_name, ops)
    }

    /// The class of the values `ops` acts on, `properties` their table (which the two
    /// constructors above vouch for).
    const fn with(
        name: &'static str,
        version: u32,
        properties: &'static [PropertyDescriptor],
        deprecated: &'static [Key],
        type_name: fn() -> &'static str,
        ops: ClassOps,
    ) -> Class {
        Class {
            name,
            crc: key_crc(name),
            aliases: &[],
            version,
            properties,
            deprecated,
            type_name,
            ops,
        }
    }

    /// The class name written under `Kind` (the Rust type name by default).
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// [`key_crc`] of [`Class::name`] (case and `_` ignored).
    pub const fn crc(&self) -> u32 {
        self.crc
    }

    /// Former names of the class (`#[jasset(alias = "Old")]`): files whose `Kind` is one
    /// of them load as this class, and save under [`Class::name`].
    pub const fn aliases(&self) -> &'static [Key] {
        self.aliases
    }

    /// The derived-tier version, written as `ClassVersion` (at least 1).
    pub const fn version(&self) -> u32 {
        self.version
    }

    /// The size of a value, in bytes.
    pub const fn size(&self) -> usize {
        self.ops.layout().size()
    }

    /// The alignment of a value, in bytes.
    pub const fn align(&self) -> usize {
        self.ops.layout().align()
    }

    /// One descriptor per property, in declaration order.
    pub const fn properties(&self) -> &'static [PropertyDescriptor] {
        self.properties
    }

    /// Keys read only by migrations: never written, never reported as unknown.
    pub const fn deprecated(&self) -> &'static [Key] {
        self.deprecated
    }

    /// The Rust type's path (`std::any::type_name`), for messages.
    pub fn type_name(&self) -> &'static str {
        (self.type_name)()
    }

    /// The type-erased operations on values of the class.
    pub const fn ops(&self) -> &ClassOps {
        &self.ops
    }

    /// This class with former names `aliases` ([`Class::aliases`]; used by the derive
    /// for `#[jasset(alias = "...")]` on the struct).
    pub const fn with_aliases(self, aliases: &'static [Key]) -> Class {
        Class { aliases, ..self }
    }

    /// Whether `name` is the class's name or one of its aliases (ASCII case and `_`
    /// ignored).
    pub fn answers_to(&self, name: &str) -> bool {
        crate::crc::keys_equal(self.name, name)
            || self
                .aliases
                .iter()
                .any(|a| crate::crc::keys_equal(a.name, name))
    }

    /// The keys a file of this class may hold: `ClassVersion`, then each property's key
    /// (the candidates of a "did you mean" for an unknown key, [`crate::did_you_mean`]).
    pub fn known_keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        std::iter::once(juliet_key::CLASS_VERSION).chain(self.properties.iter().map(|p| p.key))
    }

    /// The property whose key or alias is `key` (any spelling).
    pub fn property(&self, key: &str) -> Option<&'static PropertyDescriptor> {
        self.property_index(crate::crc::key_crc_runtime(key.as_bytes()), key)
            .map(|i| &self.properties[i])
    }

    /// Index in [`Class::properties`] of the property whose key or alias is `key`, whose
    /// [`crate::key_crc_runtime`] is `crc`: the CRC is compared first, then the
    /// normalized text, so a CRC-32 twin of a key is no property.
    pub fn property_index(&self, crc: u32, key: &str) -> Option<usize> {
        self.properties.iter().position(|p| p.matches(crc, key))
    }

    /// Whether `key` (whose [`crate::key_crc_runtime`] is `crc`) is one of the deprecated
    /// keys.
    pub fn is_deprecated(&self, crc: u32, key: &str) -> bool {
        self.deprecated.iter().any(|k| k.matches(crc, key))
    }

    /// Whether this is the class of `T` (decided by [`ClassOps::is`]).
    pub fn is<T: 'static>(&self) -> bool {
        self.ops.is::<T>()
    }
}

impl PartialEq for Class {
    fn eq(&self, other: &Class) -> bool {
        std::ptr::eq(self, other) || self.ops.key() == other.ops.key()
    }
}

/// `Reflect`-typed access to a property through its descriptor (the offset and the
/// type-erased operations, checked against the owning class).
impl PropertyDescriptor {
    /// Appends the value of this property of `object` to `out` (its value lines).
    ///
    /// # Panics
    /// Unless this descriptor is one of `T`'s property table (`T::CLASS.properties()`) or
    /// has the key, offset, size and field type of one of its entries.
    pub fn encode<T: Reflect>(&self, object: &T, out: &mut String) {
        self.checked_encode(object, out);
    }

    /// Decodes `value` into this property of `object`.
    ///
    /// # Errors
    /// The codec's [`ValueError`]; the field is unchanged then.
    ///
    /// # Panics
    /// As [`PropertyDescriptor::encode`].
    pub fn decode_into<'a, T: Reflect>(
        &self,
        object: &mut T,
        value: Value<'a>,
    ) -> Result<(), ValueError<'a>> {
        self.checked_decode_into(object, value)
    }

    /// Whether this property has the same value in `a` and `b`
    /// ([`Codec::same_value`](crate::Codec::same_value)).
    ///
    /// # Panics
    /// As [`PropertyDescriptor::encode`].
    pub fn same_value<T: Reflect>(&self, a: &T, b: &T) -> bool {
        self.checked_same_value(a, b)
    }

    /// Copies this property from `src` to `dst` (clone-assign).
    ///
    /// # Panics
    /// As [`PropertyDescriptor::encode`].
    pub fn copy_value<T: Reflect>(&self, dst: &mut T, src: &T) {
        self.checked_copy_value(dst, src);
    }
}

impl ClassOps {
    /// The operations of `T`.
    pub(crate) const fn of<T: Reflect>() -> ClassOps {
        ClassOps::erase::<T>()
    }
}

/// What type-erased code knows of a `Reflect` type ([`crate::erased`]): its operations
/// and property tables, each the `Reflect` item of the same meaning (trusted through
/// `Reflect`'s safety contract).
impl<T: Reflect> ClassType for T {
    fn default_value() -> T {
        <T as Reflect>::default_value()
    }

    fn clone_value(&self) -> T {
        <T as Reflect>::clone_value(self)
    }

    fn save(&self, ar: &mut Archive<'_>) {
        <T as Reflect>::save(self, ar);
    }

    fn load(&mut self, ar: &mut Archive<'_>) -> Result<(), Error> {
        <T as Reflect>::load(self, ar)
    }

    fn class_properties() -> &'static [PropertyDescriptor] {
        T::CLASS.properties()
    }

    fn class_name() -> &'static str {
        T::CLASS.name()
    }
}
