// Rule: a composite's fields take `rename` and `skip`; `flatten`, `with`, `alias`,
// `migrated_from` and `default` are for fields of a class, and are refused at the field.
use juliet_entities::Codec;

#[derive(Codec, Clone, Default)]
struct Inner {
    a: f32,
}

mod seconds {}

#[derive(Codec, Clone, Default)]
struct Outer {
    #[jasset(flatten)]
    inner: Inner,
    #[jasset(with = seconds)]
    period: f32,
    #[jasset(alias = "Old")]
    b: f32,
    #[jasset(default = 1.0)]
    c: f32,
}

fn main() {}
