// Rule: safe code cannot hand the runtime a property table that lies. `Reflect` and the
// derive's `Field` (a composite's leaves) are unsafe traits and `Class::of` an unsafe
// constructor (a hand-written impl or call must say `unsafe` and take on their
// contract, which a game under `#![forbid(unsafe_code)]` cannot); a `Class`'s fields and
// the type ids that the checks compare are private.
#![forbid(unsafe_code)]
use juliet_entities::juliet_core::{
    Archive, Class, Error, Properties, PropertyDescriptor, PropertyOps, Reflect,
};

struct Byte {
    value: u8,
}

// A `String` descriptor at the offset of a `u8`.
static FORGED: Class = Class::of::<Byte>(
    "Byte",
    1,
    &[PropertyDescriptor::new::<String>("Value", "value", 0, &[])],
    &[],
);

impl Reflect for Byte {
    const CLASS: &'static Class = &FORGED;
    fn default_value() -> Self {
        Byte { value: 0 }
    }
    fn clone_value(&self) -> Self {
        Byte { value: self.value }
    }
    fn save(&self, _: &mut Archive<'_>) {}
    fn load(&mut self, _: &mut Archive<'_>) -> Result<(), Error> {
        Ok(())
    }
}

// A composite whose one leaf is a `String` a megabyte past the value.
#[derive(Clone)]
struct Evil(u8);

impl juliet_entities::juliet_core::__private::Field for Evil {
    const LEAVES: &'static [PropertyDescriptor] =
        &[PropertyDescriptor::new::<String>("X", "x", 1 << 20, &[])];
    fn save_field(&self, _: &str, _: &mut String) {}
    fn read_field(
        &mut self,
        _: &mut Properties<'_, '_>,
        _: usize,
        _: &'static str,
    ) -> Result<(), Error> {
        Ok(())
    }
    fn decode_leaf(&mut self, _: &mut Properties<'_, '_>, _: usize) -> Result<(), Error> {
        Ok(())
    }
    fn copy_leaves(&mut self, _: &Self, _: &[u64], _: usize) {}
}

fn main() {
    let mut ops = PropertyOps::of::<u8>();
    ops.type_id = std::any::TypeId::of::<String>;
}
