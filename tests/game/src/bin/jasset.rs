use my_game as _; // links the game's kinds (registered by their derive) into the tool
fn main() -> std::process::ExitCode {
    jasset::main()
}
