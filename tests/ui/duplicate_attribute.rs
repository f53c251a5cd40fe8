// Rule: an attribute given twice (on the struct, on a field, in one or two lists).
use juliet_entities::Entity;

#[derive(Entity)]
#[jasset(version = 2)]
#[jasset(version = 3, name = "A", name = "B")]
struct Twice {
    #[jasset(rename = "X", default = 1)]
    #[jasset(rename = "Y", skip, skip, default = 2)]
    value: i32,
}

fn main() {}
