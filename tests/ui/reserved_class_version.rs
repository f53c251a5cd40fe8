// Rule: `ClassVersion` is reserved for the class version the derive writes.
use juliet_entities::Entity;

#[derive(Entity)]
struct Sneaky {
    class_version: u32,
}

fn main() {}
