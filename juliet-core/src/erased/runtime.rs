//! Classes defined at run time ([`crate::Class::runtime`]): a kind read from a data file
//! (the `jasset` tool's kinds from `jasset.schema`) has no Rust struct, so each of its
//! entities is an array of values of one Rust type, `[V; n]`, one value per property,
//! and its operations are made from a [`RuntimeClass`] that says what the defaults are
//! and how a file is read and written. The layout, the key and the property table are
//! fixed when the operations are made, and the table is checked against the layout, so
//! a runtime class cannot make type-erased storage reach outside its values.

use std::alloc::Layout;
use std::sync::atomic::{AtomicU64, Ordering};

use super::{ClassOps, Context, Decoded, KeyOf, Operations, PropertyDescriptor};
use crate::archive::Archive;
use crate::codec::Codec;
use crate::error::Error;
use crate::value::{Value, ValueError};

/// A class defined at run time: its values are `[Self::Value; n]`, value `i` being
/// property `i` of [`RuntimeClass::properties`] (`n` entries). Given to
/// [`Class::runtime`](crate::Class::runtime).
///
/// ```
/// use juliet_core::{
///     write_property, Archive, Class, Error, PropertyDescriptor, RuntimeClass,
/// };
///
/// /// Every property an `f32`, from a list of keys known at run time.
/// struct Floats {
///     table: &'static [PropertyDescriptor],
/// }
///
/// impl RuntimeClass for Floats {
///     type Value = f32;
///     fn properties(&self) -> &'static [PropertyDescriptor] {
///         self.table
///     }
///     fn default_value(&self, _: usize) -> f32 {
///         1.0
///     }
///     fn save(&self, values: &[f32], ar: &mut Archive<'_>) {
///         if let Some(out) = ar.output() {
///             for (p, v) in self.table.iter().zip(values) {
///                 write_property(out, p.key, v);
///             }
///         }
///     }
///     fn load(&self, values: &mut [f32], ar: &mut Archive<'_>) -> Result<(), Error> {
///         if let Some(doc) = ar.document_mut() {
///             let mut properties = doc.properties(self.table);
///             while let Some(i) = properties.next_property()? {
///                 properties.decode_into(&mut values[i])?;
///             }
///         }
///         Ok(())
///     }
/// }
///
/// let keys = ["Mass", "Drag"];
/// let table: Vec<PropertyDescriptor> = (keys.iter().enumerate())
///     .map(|(i, key)| PropertyDescriptor::new::<f32>(key, key, i * 4, &[]))
///     .collect();
/// let kind = Box::leak(Box::new(Floats { table: Vec::leak(table) }));
/// let class = Class::runtime("Drifter", 1, kind, &[]);
/// assert_eq!(class.size(), 8);
/// assert_eq!(class.properties().len(), 2);
/// assert!(!class.is::<[f32; 2]>(), "a runtime class is no Rust type");
/// ```
pub trait RuntimeClass: Send + Sync + 'static {
    /// The type of each property's value.
    type Value: Codec + Send + Sync;

    /// The property table: entry `i` at offset `i * size_of::<Value>()`, made for
    /// `Value` (`PropertyDescriptor::new::<Value>`). Read once, by
    /// [`Class::runtime`](crate::Class::runtime).
    fn properties(&self) -> &'static [PropertyDescriptor];

    /// The default of property `index`.
    fn default_value(&self, index: usize) -> Self::Value;

    /// Writes the values, `ClassVersion` first ([`crate::Reflect::save`]).
    fn save(&self, values: &[Self::Value], ar: &mut Archive<'_>);

    /// Reads the file's properties into `values` ([`crate::Reflect::load`]).
    ///
    /// # Errors
    /// As [`crate::Reflect::load`].
    fn load(&self, values: &mut [Self::Value], ar: &mut Archive<'_>) -> Result<(), Error>;

    /// Decodes `value` into property `index` of `values`: the reflection table's setter
    /// ([`ClassOps::decode_property`]: setting a property, a template's delta). By
    /// default value `index` alone reads it, by its codec, as a Rust type's field does;
    /// a class whose values hang together (the leaves of one enum, which a Rust type
    /// keeps in one field) reads it with the others.
    ///
    /// # Errors
    /// The value's [`ValueError`]; `values` are unchanged then.
    fn decode_property<'a>(
        &self,
        values: &mut [Self::Value],
        index: usize,
        value: Value<'a>,
    ) -> Result<(), ValueError<'a>> {
        values[index].decode_into(value)
    }

    /// Whether property `index` is the same in `a` and `b` ([`ClassOps::same_property`]:
    /// what makes a leaf an override of a template). By default value `index` alone
    /// answers, by its codec's [`Codec::same_value`]; a class whose values hang together
    /// compares it with the others.
    fn same_property(&self, a: &[Self::Value], b: &[Self::Value], index: usize) -> bool {
        a[index].same_value(&b[index])
    }

    /// Copies property `index` of `src` into `dst` ([`ClassOps::copy_property`]: revert,
    /// a template's change reaching its instances). By default value `index` alone is
    /// clone-assigned; a class whose values hang together copies it with the others.
    fn copy_property(&self, dst: &mut [Self::Value], src: &[Self::Value], index: usize) {
        dst[index].clone_from(&src[index]);
    }
}

/// What the operations of a runtime class carry: the class and the table it gave.
struct Parts<R: RuntimeClass> {
    class: &'static R,
    table: &'static [PropertyDescriptor],
}

/// The next key of a runtime class.
static NEXT_KEY: AtomicU64 = AtomicU64::new(0);

impl ClassOps {
    /// The operations of a class defined at run time by `class`, with its table, read
    /// once here and checked ([`crate::Class::runtime`]). Each class gets a key of its
    /// own (no Rust type's, so typed access never matches it).
    ///
    /// # Panics
    /// As [`crate::Class::runtime`].
    pub(crate) fn runtime<R: RuntimeClass>(
        class: &'static R,
    ) -> (ClassOps, &'static [PropertyDescriptor]) {
        let table = class.properties();
        let size = std::mem::size_of::<R::Value>();
        for (i, p) in table.iter().enumerate() {
            assert!(
                p.offset == i * size
                    && p.size == size
                    && p.ops.type_id() == std::any::TypeId::of::<R::Value>(),
                "entry {i} (`{}`) of a runtime class's table is not value {i}",
                p.key
            );
        }
        let layout = Layout::array::<R::Value>(table.len()).expect("a runtime class's values fit");
        let parts: &'static Parts<R> = Box::leak(Box::new(Parts { class, table }));
        let key = KeyOf::Runtime(NEXT_KEY.fetch_add(1, Ordering::Relaxed));
        (ClassOps::with::<Dynamic<R>>(parts, layout, key), table)
    }
}

/// The parts `ClassOps::runtime::<R>` made, which every operation of it is given.
fn parts<R: RuntimeClass>(context: Context) -> &'static Parts<R> {
    context
        .downcast_ref::<Parts<R>>()
        .expect("a runtime class's operations are given its own parts")
}

/// The parts of the runtime class `context` belongs to, and the values at `ptr`.
///
/// # Safety
/// `ptr` must hold the class's live values, not changed while the slice lives.
unsafe fn values<'v, R: RuntimeClass>(
    context: Context,
    ptr: *const u8,
) -> (&'static Parts<R>, &'v [R::Value]) {
    let parts = parts::<R>(context);
    // SAFETY: the caller guarantees `ptr` holds the class's `n` live values.
    let values = unsafe { std::slice::from_raw_parts(ptr.cast(), parts.table.len()) };
    (parts, values)
}

/// [`values`], for a unique borrow.
///
/// # Safety
/// `ptr` must hold the class's live values, borrowed nowhere else while the slice lives.
unsafe fn values_mut<'v, R: RuntimeClass>(
    context: Context,
    ptr: *mut u8,
) -> (&'static Parts<R>, &'v mut [R::Value]) {
    let parts = parts::<R>(context);
    // SAFETY: the caller guarantees `ptr` holds the class's `n` live values, borrowed
    // nowhere else.
    let values = unsafe { std::slice::from_raw_parts_mut(ptr.cast(), parts.table.len()) };
    (parts, values)
}

/// The operations of runtime class `R`: its values are `[R::Value; n]`, `n` the
/// entries of its table, and what is not the values' own (defaults, files, the
/// properties that hang together) is the class's.
struct Dynamic<R>(std::marker::PhantomData<R>);

impl<R: RuntimeClass> Operations for Dynamic<R> {
    unsafe fn default_in_place(cx: Context, dst: *mut u8) {
        let parts = parts::<R>(cx);
        let dst = dst.cast::<R::Value>();
        for i in 0..parts.table.len() {
            // SAFETY: the caller guarantees `dst` is valid for writes of the layout,
            // `[R::Value; n]`, and aligned: value `i` is in it. A panic of
            // `default_value` leaves the values written so far leaked, never dropped
            // twice.
            unsafe { dst.add(i).write(parts.class.default_value(i)) }
        }
    }

    unsafe fn drop_in_place(cx: Context, ptr: *mut u8) {
        let n = parts::<R>(cx).table.len();
        let values = std::ptr::slice_from_raw_parts_mut(ptr.cast::<R::Value>(), n);
        // SAFETY: the caller guarantees `ptr` holds `n` live values, not used again.
        unsafe { values.drop_in_place() }
    }

    unsafe fn clone_in_place(cx: Context, src: *const u8, dst: *mut u8) {
        let n = parts::<R>(cx).table.len();
        let (src, dst) = (src.cast::<R::Value>(), dst.cast::<R::Value>());
        for i in 0..n {
            // SAFETY: the caller guarantees `src` holds `n` live values and `dst` is
            // valid for writes of `n`, aligned and apart from `src`.
            unsafe { dst.add(i).write((*src.add(i)).clone()) }
        }
    }

    unsafe fn decode_property<'a>(cx: Context, at: *mut u8, i: usize, v: Value<'a>) -> Decoded<'a> {
        // SAFETY: the caller guarantees `at` holds the live values, with no other borrow.
        let (parts, values) = unsafe { values_mut::<R>(cx, at) };
        parts.class.decode_property(values, i, v)
    }

    unsafe fn same_property(cx: Context, a: *const u8, b: *const u8, index: usize) -> bool {
        // SAFETY: the caller guarantees `a` and `b` hold the live values, unchanged
        // during the call (shared borrows, which may be of one object).
        let ((parts, a), (_, b)) = unsafe { (values::<R>(cx, a), values::<R>(cx, b)) };
        parts.class.same_property(a, b, index)
    }

    unsafe fn copy_property(cx: Context, dst: *mut u8, src: *const u8, index: usize) {
        // SAFETY: the caller guarantees `dst` and `src` hold the live values of two
        // different objects (so the slices do not overlap), `dst` borrowed nowhere else.
        let ((parts, dst), (_, src)) = unsafe { (values_mut::<R>(cx, dst), values::<R>(cx, src)) };
        parts.class.copy_property(dst, src, index);
    }

    unsafe fn save(cx: Context, ptr: *const u8, ar: &mut Archive<'_>) {
        // SAFETY: the caller guarantees `ptr` holds the live values.
        let (parts, values) = unsafe { values::<R>(cx, ptr) };
        parts.class.save(values, ar);
    }

    unsafe fn load(cx: Context, ptr: *mut u8, ar: &mut Archive<'_>) -> Result<(), Error> {
        // SAFETY: the caller guarantees `ptr` holds the live values, with no other borrow.
        let (parts, values) = unsafe { values_mut::<R>(cx, ptr) };
        parts.class.load(values, ar)
    }
}

#[cfg(test)]
mod tests;
