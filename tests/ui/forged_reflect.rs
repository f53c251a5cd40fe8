// Rule: safe code cannot hand the runtime a property table that lies. `Reflect` is an
// unsafe trait (a hand-written impl must say `unsafe impl` and take on its contract,
// which a game under `#![forbid(unsafe_code)]` cannot), and the type ids that the checks
// compare are private.
#![forbid(unsafe_code)]
use juliet_entities::juliet_core::{
    Archive, Class, ClassOps, Error, PropertyDescriptor, PropertyOps, Reflect,
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

fn main() {
    let mut ops = PropertyOps::of::<u8>();
    ops.type_id = std::any::TypeId::of::<String>;
    let mut class_ops = ClassOps::of::<Byte>();
    class_ops.type_id = std::any::TypeId::of::<u8>;
}
