//! A game's own `jasset`: the whole tool, with one kind of the game linked in beside the
//! stock ones. A game writes the same `main` in `src/bin/jasset.rs`, its kinds coming
//! from its library (docs/guide.md, "Your game's own jasset").
//!
//! `cargo run -p jasset --example game_tool -- schema export -o -` prints the schema of
//! the game's kinds, `Lantern` (`--stock-kinds` adds the stock ones); `check`, `fmt`,
//! `inspect`, `set` and the rest take files of `Kind: Lantern` in a project (a folder
//! holding `Assets/`).

use juliet_entities::prelude::*;

/// A lantern of the game: registered by its derive, so the tool knows its properties.
#[derive(Entity, Debug)]
pub struct Lantern {
    /// Light radius in metres.
    #[jasset(default = 4.0)]
    pub radius: f32,
    /// Whether it is lit when the level starts.
    pub lit: bool,
}

fn main() -> std::process::ExitCode {
    jasset::main()
}
