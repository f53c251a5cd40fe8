// Rule: a field type with no codec is an error at the type, naming the trait to
// implement and `#[jasset(skip)]`: one error per field, not one per generated use.
// (This case names only juliet_core, so that codecs defined in other crates do not
// change the list of implementors rustc prints.)
use juliet_derive::Entity;

#[derive(Default)]
pub struct AudioHandle(u32);

#[derive(Entity)]
#[jasset(crate = ::juliet_core)]
struct Speaker {
    volume: f32,
    clip: AudioHandle,
    playlist: Vec<AudioHandle>,
}

fn main() {}
