// Rule: generic structs are refused (one static class table per type).
use juliet_entities::Entity;

#[derive(Entity)]
struct Slot<T> {
    item: T,
}

fn main() {}
