// Rule: `Owned<T, dyn Trait>` needs `T: Trait` (after `contract!(Trait)`).
use juliet_constructs::{construct, contract, Construct, Owned};

pub trait Targetable {
    fn aim(&mut self);
}
contract!(Targetable);

#[derive(Construct)]
struct Barrel;

#[construct]
impl Barrel {}

#[derive(Construct)]
struct Turret {
    barrel: Owned<Barrel, dyn Targetable>,
}

#[construct]
impl Turret {}

fn main() {}
