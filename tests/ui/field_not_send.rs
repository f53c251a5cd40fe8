// Rule: an entity's fields, skipped ones too, are `Send + Sync`: worlds move between
// threads with their entities, so a single-threaded handle such as an `Rc` is refused.
use juliet_derive::Entity;

#[derive(Default)]
pub struct Mesh;

#[derive(Entity)]
#[jasset(crate = ::juliet_core)]
struct Statue {
    height: f32,
    #[jasset(skip)]
    mesh: std::rc::Rc<Mesh>,
}

fn main() {}
