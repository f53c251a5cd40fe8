//! A class whose drop shows a value made from the file being dropped, and one whose
//! declared default has a side effect (part of `from_text_hostile.rs`).

use super::*;

// ---------------------------------------------------------------------------------
// A value made from the file and dropped.

/// A class whose drop panics for `fuse == 13` (as the entity runtime's test kind
/// `Exploding`): it shows whether a load drops a value made from the file.
#[derive(Entity, Debug, Clone, PartialEq)]
struct Fragile {
    fuse: u32,
    label: String,
}

impl Drop for Fragile {
    fn drop(&mut self) {
        assert_ne!(self.fuse, 13, "a Fragile with fuse 13 dropped");
    }
}

/// `from_text` decodes `Fuse = 13` into its new value and declines at `Unknown`; the
/// general path then goes on over that value, so no value made from the file is
/// dropped (the general path, and `load_text` over a default value, drop none either):
/// a drop here would panic, where the general path gives `Ok` (`fuse` 13, `Unknown`
/// kept).
#[test]
fn from_text_drops_no_value_made_from_the_file_when_the_general_path_succeeds() {
    let text = b"; Fuse\n13\n; Unknown\n1\n";
    let mut want = Fragile::default_value();
    let report = general(text, &mut want).unwrap();
    assert_eq!((want.fuse, report.unknown().len()), (13, 1));
    let mut kept = Fragile::default_value();
    let mut buffer = TokenBuffer::new();
    load_text(&mut buffer, text, Path::new(PATH), &mut kept).unwrap();
    assert_eq!(
        kept, want,
        "load_text over a default value: no drop, the same value"
    );
    let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        from_text::<Fragile>(&mut buffer, text, Path::new(PATH))
    }));
    want.fuse = 0;
    kept.fuse = 0;
    let (mut value, report) = got
        .expect("from_text panicked: it dropped the half-read value")
        .unwrap();
    assert_eq!((value.fuse, report.unknown().len()), (13, 1));
    value.fuse = 0;
}

thread_local! {
    /// The next handle `Handled::default_value` gives, on this thread.
    static NEXT_HANDLE: Cell<u32> = const { Cell::new(1) };
}

fn next_handle() -> u32 {
    let h = NEXT_HANDLE.get();
    NEXT_HANDLE.set(h + 1);
    h
}

/// A class with a runtime handle (skipped: never in the file) taken from a counter by
/// its declared default.
#[derive(Entity, Debug, Clone, PartialEq)]
struct Handled {
    #[jasset(skip, default = next_handle())]
    handle: u32,
    size: f32,
    name: String,
}

/// `from_text` makes `T::default_value()` once, also for a file it declines after
/// decoding `Size`: a declared default with a side effect runs once and the value gets
/// the first handle, as through the general path over one `T::default_value()`.
#[test]
fn from_text_makes_one_default_value() {
    let mut buffer = TokenBuffer::new();
    let declined = b"; Size\n2.5\n; Name\nx\n; Extra\n1\n";
    // What the general path gives over one new default.
    let first = NEXT_HANDLE.get();
    let mut want = Handled::default_value();
    general(declined, &mut want).unwrap();
    assert_eq!((want.handle, NEXT_HANDLE.get()), (first, first + 1));
    // A canonical file: one default, read directly.
    let first = NEXT_HANDLE.get();
    let (direct, report) =
        from_text::<Handled>(&mut buffer, b"; Size\n2.5\n", Path::new(PATH)).unwrap();
    assert!(report.direct());
    assert_eq!((direct.handle, NEXT_HANDLE.get()), (first, first + 1));
    // Declined part way: should be the same, one default.
    let first = NEXT_HANDLE.get();
    let (got, report) = from_text::<Handled>(&mut buffer, declined, Path::new(PATH)).unwrap();
    assert!(!report.direct());
    assert_eq!((got.size, got.name.as_str()), (2.5, "x"));
    assert_eq!(
        (got.handle, NEXT_HANDLE.get()),
        (first, first + 1),
        "from_text ran the declared default more than once"
    );
}
