//! The compile-fail suite of `#[derive(Entity)]` and `#[derive(Codec)]` (issue 3, item
//! 3): one case per rule under `tests/ui/`, each with its checked-in `.stderr`.
//!
//! Re-bless after an intended change of a message with
//! `TRYBUILD=overwrite cargo test -p juliet-tests --test ui`, and read the diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
}
