//! The core bench's typed-load record, `Unit`: 12 plain fields, loaded by the core
//! bench (`typed_load/*`) and, as the flat record the composite record is measured
//! against, by the composite bench (`#[path = "common/unit.rs"] mod unit;`, beside
//! `mod rng`).

use glam::Vec3;
use juliet_core::Codec;
use serde::Deserialize;

use super::rng::Rng;

pub(crate) const MESHES: [&str; 4] = [
    "Assets/Meshes/Rock_01.obj",
    "Assets/Meshes/Crate_Small.obj",
    "Assets/Meshes/Lamp_Post.obj",
    "Assets/Meshes/Barrel_Wood_02.obj",
];

pub(crate) const NAMES: [&str; 4] = [
    "Grand Citadel Knight",
    "Old Lantern",
    "Supply Crate",
    "Mossy Rock",
];

/// The typed-load record: 6 `f32`, a 3-vector, a `u64` id, an `i32`, a `bool` and two
/// short strings, through `#[derive(Entity)]` (fields in the files' order) and
/// `#[derive(Deserialize)]`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, juliet_derive::Entity)]
#[jasset(crate = ::juliet_core)]
pub(crate) struct Unit {
    pub(crate) entity_no: u64,
    pub(crate) health: f32,
    pub(crate) max_speed: f32,
    pub(crate) acceleration: f32,
    pub(crate) turn_rate: f32,
    pub(crate) mass: f32,
    pub(crate) sight_radius: f32,
    #[serde(deserialize_with = "vec3")]
    pub(crate) location: Vec3,
    pub(crate) team_index: i32,
    pub(crate) is_visible: bool,
    pub(crate) display_name: String,
    pub(crate) mesh_asset: String,
}

/// `Vec3` from a JSON array of three numbers.
fn vec3<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec3, D::Error> {
    <[f32; 3]>::deserialize(d).map(Vec3::from_array)
}

fn random_unit(rng: &mut Rng, index: usize) -> Unit {
    Unit {
        health: rng.float().abs(),
        max_speed: rng.float(),
        acceleration: rng.float(),
        turn_rate: rng.float(),
        mass: rng.float().abs(),
        sight_radius: rng.float().abs(),
        location: Vec3::new(rng.float(), rng.float(), rng.float()),
        entity_no: rng.next(),
        team_index: rng.below(64) as i32 - 32,
        is_visible: rng.below(2) == 0,
        display_name: format!("{} {}", NAMES[index % NAMES.len()], index % 100),
        mesh_asset: MESHES[rng.below(MESHES.len() as u64) as usize].to_owned(),
    }
}

/// The record as a `.jasset` file, in the writer's canonical form.
fn unit_jasset(u: &Unit) -> String {
    fn prop<T: Codec>(out: &mut String, key: &str, v: &T) {
        juliet_core::write_property(out, key, v);
    }
    let mut s = String::new();
    prop(&mut s, "EntityNo", &u.entity_no);
    prop(&mut s, "Health", &u.health);
    prop(&mut s, "MaxSpeed", &u.max_speed);
    prop(&mut s, "Acceleration", &u.acceleration);
    prop(&mut s, "TurnRate", &u.turn_rate);
    prop(&mut s, "Mass", &u.mass);
    prop(&mut s, "SightRadius", &u.sight_radius);
    prop(&mut s, "Location", &u.location);
    prop(&mut s, "TeamIndex", &u.team_index);
    prop(&mut s, "IsVisible", &u.is_visible);
    prop(&mut s, "DisplayName", &u.display_name);
    prop(&mut s, "MeshAsset", &u.mesh_asset);
    s
}

/// The record as JSON (floats in the writer's shortest form).
fn unit_json(u: &Unit) -> String {
    let f = |v: f32| {
        let mut s = String::new();
        v.encode(&mut s);
        s
    };
    format!(
        "{{\"entity_no\":{},\"health\":{},\"max_speed\":{},\"acceleration\":{},\
         \"turn_rate\":{},\"mass\":{},\"sight_radius\":{},\"location\":[{},{},{}],\
         \"team_index\":{},\"is_visible\":{},\"display_name\":\"{}\",\"mesh_asset\":\"{}\"}}",
        u.entity_no,
        f(u.health),
        f(u.max_speed),
        f(u.acceleration),
        f(u.turn_rate),
        f(u.mass),
        f(u.sight_radius),
        f(u.location.x),
        f(u.location.y),
        f(u.location.z),
        u.team_index,
        u.is_visible,
        u.display_name,
        u.mesh_asset
    )
}

/// `count` distinct records (the same ones in every bench and run), as `.jasset` files
/// and as JSON.
pub(crate) fn records(count: usize) -> (Vec<Unit>, Vec<String>, Vec<String>) {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let units: Vec<Unit> = (0..count).map(|i| random_unit(&mut rng, i)).collect();
    let jasset = units.iter().map(unit_jasset).collect();
    let json = units.iter().map(unit_json).collect();
    (units, jasset, json)
}
