// Every mistake of a struct is reported in one build, and the stub impl keeps code
// that uses the type free of follow-up errors (`Reflect` is still implemented).
use juliet_entities::juliet_core::Reflect;
use juliet_entities::Entity;

#[derive(Entity)]
#[jasset(version = 0, colour = "red")]
struct Broken {
    #[jasset(rename = "B")]
    a: i32,
    b: i32,
    #[jasset(skip, rename = "C")]
    c: i32,
}

fn main() {
    let value = Broken::default_value();
    let _ = Broken::CLASS.name();
    let _ = value.clone_value();
}
