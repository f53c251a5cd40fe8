// Rule: a field's `#[part(..)]` names one part, `owned`, `view` or `plain`, once.
use juliet_constructs::{construct, Construct, Owned};

#[derive(Construct, Default)]
struct Ammo;
#[construct]
impl Ammo {}

#[derive(Construct, Default)]
struct Gun {
    #[part(child)]
    magazine: Owned<Ammo>,
    #[part(owned, view)]
    spare: Owned<Ammo>,
}
#[construct]
impl Gun {}

fn main() {}
