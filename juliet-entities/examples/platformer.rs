//! Placeholder: replaced by the full sample.
fn main() {
    println!("platformer");
}
