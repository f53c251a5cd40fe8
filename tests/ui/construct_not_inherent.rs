// Rule: `#[construct]` goes on an inherent impl block, not on a trait impl or another
// item.
use juliet_constructs::{construct, Construct};

#[derive(Construct)]
struct Door;

#[construct]
impl Default for Door {
    fn default() -> Door {
        Door
    }
}

#[construct]
fn scalar_update() {}

fn main() {}
