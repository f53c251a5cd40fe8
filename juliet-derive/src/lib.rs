//! `#[derive(Entity)]` for Juliet-rs (filled by the derive issue).
