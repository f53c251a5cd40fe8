// Rule: unit enum variants are read ignoring ASCII case, so two variants whose written
// names differ only in case are refused.
use juliet_entities::Codec;

#[derive(Codec, Clone, PartialEq)]
enum Mode {
    Fast,
    #[jasset(rename = "FAST")]
    Quick,
    #[jasset(rename = "slow", alias = "Lazy")]
    Slow,
}

fn main() {}
