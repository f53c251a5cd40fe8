//! `jasset`: checks, formats, inspects, migrates, generates and benchmarks `.jasset`
//! asset trees, and runs the whole pipeline on the bundled sample project
//! (`jasset demo`). The logic lives in `juliet_entities::cli`.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    juliet_entities::cli::run(juliet_entities::cli::Cli::parse())
}
