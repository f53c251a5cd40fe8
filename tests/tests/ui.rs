//! The compile-time suite of `#[derive(Entity)]` and `#[derive(Codec)]`: one case per
//! rule under `tests/ui/`, each with its checked-in `.stderr`, and the cases under
//! `tests/ui-pass/` that must compile.
//!
//! Re-bless after an intended change of a message with
//! `TRYBUILD=overwrite cargo test -p juliet-tests --features end-to-end --test ui`, and
//! read the diff. (The suite builds its own copy of the dependencies, minutes of
//! compiling: `cargo test --workspace` leaves it out, `.ci/run` runs it.)

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
    t.pass("ui-pass/*.rs");
}
