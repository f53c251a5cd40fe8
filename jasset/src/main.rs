//! `jasset`, the stock tool: it knows the stock entity kinds. A game makes its own
//! `jasset`, which knows the game's kinds too, with the same three lines in a binary of
//! its crate (see the guide, "The `jasset` tool").

fn main() -> std::process::ExitCode {
    juliet_entities::cli::main()
}
