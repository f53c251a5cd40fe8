//! `jasset`, the stock tool: it knows the stock entity kinds. A game makes its own
//! `jasset`, which knows the game's kinds too, with the same line in a binary of its
//! crate (see the crate documentation of the `jasset` library).
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    jasset::main()
}
