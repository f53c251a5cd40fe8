// Rule: #[derive(Codec)] needs something to write: an enum without variants, a struct
// without fields and a struct whose fields are all skipped have no form. (Unit enums,
// enums with data and structs with fields are accepted.)
use juliet_entities::Codec;

#[derive(Codec, Clone, PartialEq)]
struct Nothing;

#[derive(Codec, Clone, PartialEq)]
struct AllSkipped {
    #[jasset(skip)]
    cache: u32,
}

#[derive(Codec, Clone, PartialEq)]
enum Never {}

fn main() {}
