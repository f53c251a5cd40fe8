//! One record through juliet-core alone: a class derived with `#[jasset(crate = ...)]`
//! (a game derives through `juliet-entities` instead), read from a hand-edited file
//! (comments, snake_case keys, an unknown key reported), written in canonical form, and
//! a bad value reported at its line and column. (The canonical form holds what the class
//! declares; a world's save, which edits the file in place, keeps the unknown key's
//! line.)
//!
//! `cargo run -p juliet-core --example record`

use std::path::Path;

use juliet_core::{from_text, Archive, Reflect, TokenBuffer};

/// A door of a level: two plain fields and a composite.
#[derive(juliet_derive::Entity, Debug)]
#[jasset(crate = ::juliet_core)]
struct Door {
    #[jasset(default = 1.0)]
    width: f32,
    locked: bool,
    hinge: Hinge,
}

/// Where the door turns: each leaf its own line (`Hinge.Side`, `Hinge.Angle`).
#[derive(juliet_derive::Codec, Debug, Clone, Default)]
#[jasset(crate = ::juliet_core)]
struct Hinge {
    side: i32,
    angle: f32,
}

fn main() -> Result<(), juliet_core::Error> {
    let mut buffer = TokenBuffer::new();
    let path = Path::new("door.jasset");
    let edited = b"# the cellar door\n; locked: true\n; Hinge.Angle\n90.0\n; Color\nred\n";
    let (door, report) = from_text::<Door>(&mut buffer, edited, path)?;
    println!("read: {door:?}");
    for unknown in report.unknown().iter() {
        println!("unknown key, not the class's: {}", unknown.key());
    }

    let mut text = String::new();
    door.save(&mut Archive::saving(&mut text));
    println!("canonical form:\n{text}");

    let bad = b"; Width\nwide\n";
    if let Err(error) = from_text::<Door>(&mut buffer, bad, path) {
        println!("a bad value: {error}");
    }
    Ok(())
}
