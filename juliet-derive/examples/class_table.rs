//! What `#[derive(Entity)]` makes of a struct: its class (name, version, deprecated
//! keys) and its property table, one row per leaf (a composite's leaves by their
//! dotted path) with its key, type and byte offset, then the defaults as a file writes
//! them.
//!
//! `cargo run -p juliet-derive --example class_table`

use juliet_entities::glam::Quat;
use juliet_entities::juliet_core::{Archive, Error, Reflect};
use juliet_entities::prelude::*;

/// The numbers of a fighter: a composite, two leaves.
#[derive(Codec, Clone, Default)]
struct Stats {
    hp: f32,
    armor: f32,
}

/// A guard of the level, at version 2: its old `Speed` key is migrated.
#[derive(Entity)]
#[jasset(version = 2, deprecated = "Speed", migrate = Guard::migrate)]
struct Guard {
    #[jasset(default = 3.5, migrated_from = "Speed")]
    walk_speed: f32,
    stats: Stats,
    facing: Quat,
    patrol: Vec<u32>,
    alarm_delay: Option<f32>,
}

impl Guard {
    fn migrate(&mut self, from: u32, ar: &mut Archive<'_>) -> Result<(), Error> {
        if from < 2 {
            if let Some(speed) = ar.read_deprecated::<f32>("Speed")? {
                self.walk_speed = speed;
            }
        }
        Ok(())
    }
}

fn main() {
    let class = Guard::CLASS;
    println!(
        "class {} version {}, {} bytes",
        class.name(),
        class.version(),
        class.size()
    );
    let deprecated: Vec<&str> = class.deprecated().iter().map(|k| k.name).collect();
    println!("deprecated keys: {}", deprecated.join(", "));
    let guard = Guard::default_value();
    let mut text = String::new();
    guard.save(&mut Archive::saving(&mut text));
    println!("{:<12} {:<28} {:>6}", "key", "type", "offset");
    for p in class.properties() {
        println!(
            "{:<12} {:<28} {:>6}",
            p.key,
            p.property_type.to_string(),
            p.offset
        );
    }
    println!("\nthe defaults as a file writes them:\n{text}");
}
