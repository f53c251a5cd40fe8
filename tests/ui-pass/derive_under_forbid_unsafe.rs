// Rule: a game crate under `#![forbid(unsafe_code)]` still derives `Entity` and `Codec`
// (the derive's `unsafe impl` is its own, not the game's), with fields of the common
// types.
#![forbid(unsafe_code)]
use juliet_entities::{Codec, Entity};

#[derive(Codec, Clone, PartialEq, Default)]
enum Team {
    #[default]
    Red,
    Blue,
}

#[derive(Entity)]
struct Guard {
    hp: Option<f32>,
    team: Team,
    patrol: Vec<[i32; 2]>,
    loot: std::collections::BTreeMap<String, u32>,
}

fn main() {}
