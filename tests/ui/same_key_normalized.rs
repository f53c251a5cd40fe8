// Rule: two field keys that normalize to the same key (ASCII case and `_` ignored).
use juliet_entities::Entity;

#[derive(Entity)]
struct Inert {
    mesh_instance: u32,
    meshinstance: u32,
}

fn main() {}
