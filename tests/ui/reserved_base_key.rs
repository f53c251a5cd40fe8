// Rule: a property may not be keyed like a base key of entity files (or one of its
// other spellings), as a key or an alias; each is refused at its field, with a rename.
use juliet_entities::Entity;

#[derive(Entity)]
struct Vehicle {
    position: [f32; 3],
    #[jasset(alias = "id")]
    serial: u64,
    #[jasset(rename = "Class")]
    category: u8,
    template: String,
}

fn main() {}
