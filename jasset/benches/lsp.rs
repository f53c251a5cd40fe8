//! `jasset lsp` timed from an editor's side: each measurement is one round trip through
//! the server process (the request written to its stdin, the answer read from its
//! stdout), so it bounds the server's time from above.
//!
//! - `diagnostics_1000_lines`: one keystroke (a digit of a value changed) in a 1,000-line
//!   buffer, until the server publishes its diagnostics (full-text synchronization, as
//!   the server asks for);
//! - `hover_demo`: hover on a key of a demo instance whose value comes through a chain
//!   of two templates;
//! - `completion_demo`: the keys completion offers on a new line of a demo instance.
//!
//! `cargo bench -p jasset --bench lsp` (docs/performance.md gives the figures and the
//! profile they were measured with).
// criterion_group! makes a public function that cannot carry a doc comment.
#![allow(missing_docs)]

use std::fs;

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::Value as Json;

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/lsp_client/mod.rs"]
mod lsp_client;

use lsp_client::Server;

const LEVEL: &str = "Assets/Worlds/Level01/Entities";

/// A kind of the project's schema whose files are long: a path of points, one a line.
const SCHEMA: &str = "; AssetType\nSchema\n; Spline\nversion 1\nproperty Points list(floats3) []\n";

/// A `Spline` entity file of 1,000 lines whose last point's first digit is `digit`.
fn spline(digit: u32) -> String {
    let mut text = String::from("; Kind: Spline\nEntityID: 0x0001000000005000\n; Points\n");
    for i in 0..996 {
        text.push_str(&format!("{}.5 {}.25 -{}.0\n", i % 97, i % 13, i % 7));
    }
    text.push_str(&format!("{digit}.0 0.0 0.0\n"));
    text
}

fn lsp(c: &mut Criterion) {
    let (_dir, root) = common::demo_copy();
    fs::write(root.join("jasset.schema"), SCHEMA).unwrap();
    let mut server = Server::start();

    let long = root.join(LEVEL).join("Spline_001.jasset");
    let texts = [spline(1), spline(2)];
    assert_eq!(texts[0].lines().count(), 1_000);
    assert_eq!(server.open(&long, &texts[0]), Vec::<Json>::new());
    let mut turn = 0;
    c.bench_function("diagnostics_1000_lines", |b| {
        b.iter(|| {
            turn = 1 - turn;
            let shown = server.change(&long, &texts[turn]);
            assert!(shown.is_empty(), "{shown:?}");
        })
    });

    let mossy = root.join(LEVEL).join("RockLargeMossy_001.jasset");
    let text = fs::read_to_string(&mossy).unwrap() + "Health: 5.0\n";
    server.open(&mossy, &text);
    let health = text.lines().position(|l| l.starts_with("Health")).unwrap() as u32;
    c.bench_function("hover_demo", |b| {
        b.iter(|| {
            let shown = server.at("textDocument/hover", &mossy, health, 2);
            assert!(shown["contents"]["value"]
                .as_str()
                .unwrap()
                .contains("120.0"));
        })
    });

    let rock = root.join(LEVEL).join("RockLarge_042.jasset");
    let text = fs::read_to_string(&rock).unwrap();
    server.open(&rock, &text);
    let end = text.lines().count() as u32;
    c.bench_function("completion_demo", |b| {
        b.iter(|| {
            let items = server.at("textDocument/completion", &rock, end, 0);
            assert!(!items.as_array().unwrap().is_empty());
        })
    });
    server.stop();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50);
    targets = lsp
}
criterion_main!(benches);
