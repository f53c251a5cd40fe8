// Rule: `Owned<T>` needs `T` to be a construct.
use juliet_constructs::{construct, Construct, Owned};

#[derive(Construct)]
struct Turret {
    ammo: Owned<u32>,
}

#[construct]
impl Turret {}

fn main() {}
