// Rule: a field type with no codec is an error at the type, naming the trait to
// implement and `#[jasset(skip)]`: one error per field, not one per generated use.
use juliet_entities::Entity;

#[derive(Default)]
pub struct AudioHandle(u32);

#[derive(Entity)]
struct Speaker {
    volume: f32,
    clip: AudioHandle,
    playlist: Vec<AudioHandle>,
}

fn main() {}
