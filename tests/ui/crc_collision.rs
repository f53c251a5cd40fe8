// Rule: two different keys whose CRC-32 collide (files are matched by key CRC).
// "plumless" and "buckeroo" are a known CRC-32 collision.
use juliet_entities::Entity;

#[derive(Entity)]
struct Unlucky {
    plumless: i32,
    buckeroo: i32,
}

fn main() {}
