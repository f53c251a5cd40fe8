//! A class defined at run time through its type-erased operations, on raw blocks of
//! its layout (run under Miri with the rest of `erased`).

use std::alloc::{alloc, dealloc, Layout};
use std::cell::Cell;
use std::path::Path;
use std::sync::Mutex;

use crate::archive::{write_property, Archive};
use crate::codec::{Codec, PropertyType};
use crate::erased::{ClassKey, ClassOps, PropertyDescriptor, RuntimeClass};
use crate::error::Error;
use crate::token::TokenBuffer;
use crate::value::{Value, ValueError};

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

/// A string that counts the live values of its type on this thread.
#[derive(Debug, PartialEq)]
struct Named(String);

impl Named {
    fn new(text: &str) -> Named {
        LIVE.with(|c| c.set(c.get() + 1));
        Named(text.to_owned())
    }
}

impl Clone for Named {
    fn clone(&self) -> Named {
        Named::new(&self.0)
    }
}

impl Drop for Named {
    fn drop(&mut self) {
        LIVE.with(|c| c.set(c.get() - 1));
    }
}

impl Codec for Named {
    const PROPERTY_TYPE: PropertyType = PropertyType::String;
    fn encode(&self, out: &mut String) {
        self.0.encode(out);
    }
    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        String::decode(value).map(|s| Named::new(&s))
    }
}

/// Three `Named` properties, each defaulting to its key in lower case.
struct Names {
    table: &'static [PropertyDescriptor],
}

impl RuntimeClass for Names {
    type Value = Named;
    fn properties(&self) -> &'static [PropertyDescriptor] {
        self.table
    }
    fn default_value(&self, index: usize) -> Named {
        Named::new(&self.table[index].key.to_lowercase())
    }
    fn save(&self, values: &[Named], ar: &mut Archive<'_>) {
        if let Some(out) = ar.output() {
            for (p, v) in self.table.iter().zip(values) {
                write_property(out, p.key, v);
            }
        }
    }
    fn load(&self, values: &mut [Named], ar: &mut Archive<'_>) -> Result<(), Error> {
        if let Some(doc) = ar.document_mut() {
            let mut properties = doc.properties(self.table);
            while let Some(i) = properties.next_property()? {
                properties.decode_into(&mut values[i])?;
            }
        }
        Ok(())
    }
}

/// What the tests made to live for the program, held from a static: runtime classes
/// live as long as the program (the registry holds them), and Miri's leak check counts
/// memory a static reaches as live.
static KEPT: Mutex<Vec<Kept>> = Mutex::new(Vec::new());

enum Kept {
    Ops(#[allow(dead_code)] ClassOps),
    Names(#[allow(dead_code)] &'static Names),
}

/// `names` leaked and kept.
fn keep(names: Names) -> &'static Names {
    let names: &'static Names = Box::leak(Box::new(names));
    KEPT.lock().unwrap().push(Kept::Names(names));
    names
}

/// The operations of the runtime class of `names`, kept, and its table.
fn runtime(names: Names) -> (ClassOps, &'static [PropertyDescriptor]) {
    let (ops, table) = ClassOps::runtime(keep(names));
    KEPT.lock().unwrap().push(Kept::Ops(ops));
    (ops, table)
}

/// The table of `keys`, entry `i` at value `i`.
fn table(keys: &[&'static str]) -> Vec<PropertyDescriptor> {
    let size = std::mem::size_of::<Named>();
    let table = keys.iter().enumerate();
    let table = table.map(|(i, k)| PropertyDescriptor::new::<Named>(k, k, i * size, &[]));
    table.collect()
}

fn names(keys: &[&'static str]) -> (ClassOps, &'static [PropertyDescriptor]) {
    runtime(Names {
        table: Vec::leak(table(keys)),
    })
}

/// A block of `layout`, freed on drop.
struct Block(*mut u8, Layout);

impl Block {
    fn new(layout: Layout) -> Block {
        assert!(layout.size() > 0);
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc(layout) };
        assert!(!ptr.is_null());
        Block(ptr, layout)
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        // SAFETY: allocated in `Block::new` with this layout.
        unsafe { dealloc(self.0, self.1) }
    }
}

#[test]
fn values_are_made_cloned_saved_loaded_and_dropped_one_per_property() {
    let (ops, table) = names(&["Left", "Right", "Up"]);
    assert_eq!(ops.layout(), Layout::array::<Named>(3).unwrap());
    assert_eq!(table.len(), 3);
    let before = LIVE.with(Cell::get);
    let (a, b) = (Block::new(ops.layout()), Block::new(ops.layout()));
    // SAFETY: both blocks have the class's layout; each value is written once, used
    // while live and dropped once.
    unsafe {
        ops.default_in_place(a.0);
        let values = std::slice::from_raw_parts(a.0.cast::<Named>(), 3);
        assert_eq!(
            values,
            [Named::new("left"), Named::new("right"), Named::new("up")]
        );
        let mut text = String::new();
        ops.save(a.0, &mut Archive::saving(&mut text));
        assert_eq!(text, "; Left\nleft\n; Right\nright\n; Up\nup\n");

        ops.clone_in_place(a.0, b.0);
        let mut buffer = TokenBuffer::new();
        let doc = buffer
            .tokenize(b"; Up\ndown\n", Path::new("n.jasset"))
            .unwrap();
        ops.load(b.0, &mut Archive::loading(doc)).unwrap();
        let loaded = std::slice::from_raw_parts(b.0.cast::<Named>(), 3);
        assert_eq!(loaded[2].0, "down");
        assert_eq!(loaded[0].0, "left");
        assert_eq!(LIVE.with(Cell::get) - before, 6);
        ops.drop_in_place(a.0);
        ops.drop_in_place(b.0);
    }
    assert_eq!(LIVE.with(Cell::get), before, "every value dropped once");
}

#[test]
fn a_property_is_set_through_the_class() {
    let (ops, _) = names(&["Left", "Right"]);
    let block = Block::new(ops.layout());
    // SAFETY: the block has the class's layout; its values are made once, borrowed only
    // through these calls and dropped once.
    unsafe {
        ops.default_in_place(block.0);
        ops.decode_property(block.0, 1, Value::from_text("\"far right\""))
            .unwrap();
        let values = std::slice::from_raw_parts(block.0.cast::<Named>(), 2);
        assert_eq!(
            (values[0].0.as_str(), values[1].0.as_str()),
            ("left", "far right")
        );
        ops.drop_in_place(block.0);
    }
}

/// By default a property is compared and copied by its value alone
/// ([`RuntimeClass::same_property`], [`RuntimeClass::copy_property`]).
#[test]
fn a_property_is_compared_and_copied_by_its_value_by_default() {
    let (ops, _) = names(&["Left", "Right"]);
    let before = LIVE.with(Cell::get);
    let (a, b) = (Block::new(ops.layout()), Block::new(ops.layout()));
    // SAFETY: both blocks have the class's layout; each value is made once, borrowed
    // only through these calls and dropped once; the blocks are different objects.
    unsafe {
        ops.default_in_place(a.0);
        ops.default_in_place(b.0);
        ops.decode_property(b.0, 1, Value::from_text("far"))
            .unwrap();
        assert!(ops.same_property(a.0, b.0, 0));
        assert!(!ops.same_property(a.0, b.0, 1));
        assert!(ops.same_property(b.0, b.0, 1));
        ops.copy_property(a.0, b.0, 1);
        assert!(ops.same_property(a.0, b.0, 1));
        let values = std::slice::from_raw_parts(a.0.cast::<Named>(), 2);
        assert_eq!(
            (values[0].0.as_str(), values[1].0.as_str()),
            ("left", "far")
        );
        ops.drop_in_place(a.0);
        ops.drop_in_place(b.0);
    }
    assert_eq!(LIVE.with(Cell::get), before, "every value dropped once");
}

#[test]
fn each_runtime_class_has_a_key_of_its_own_and_no_rust_types() {
    let (one, two) = (names(&["A"]).0, names(&["A"]).0);
    assert_ne!(one.key(), two.key());
    assert_eq!(one.key(), one.key());
    assert!(!one.is::<[Named; 1]>() && !one.is::<Named>());
    assert_ne!(one.key(), ClassKey::of::<[Named; 1]>());
}

#[test]
#[should_panic(expected = "is not value 1")]
fn a_table_that_is_not_the_values_is_refused() {
    let keys: &[&'static str] = &["A", "B"];
    let mut forged = table(keys);
    forged[1].offset += 1;
    runtime(Names {
        table: Vec::leak(forged),
    });
}

#[test]
#[should_panic(expected = "is not value 0")]
fn a_table_of_another_value_type_is_refused() {
    runtime(Names {
        table: Vec::leak(vec![PropertyDescriptor::new::<u64>("A", "a", 0, &[])]),
    });
}
