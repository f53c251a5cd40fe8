//! Review probe: the vector codecs' one-pass reader (the writer's plain-decimal
//! form) and the general reader give, for every separator form and number spelling
//! of docs/jasset-format.md, the bits `str::parse::<f32>` gives per component (or,
//! for a finite number too large for `f32`, an out-of-range error).

use juliet_core::{Codec, Value};
use proptest::prelude::*;

fn component() -> impl Strategy<Value = String> {
    prop_oneof![
        // Shortest round-trip text of any finite f32, and other spellings of it.
        any::<u32>()
            .prop_map(f32::from_bits)
            .prop_filter("finite", |v| v.is_finite())
            .prop_flat_map(|v| {
                prop::sample::select(vec![
                    format!("{v:?}"),
                    format!("{v:e}"),
                    format!("{v:E}"),
                    format!("{v:.3}"),
                    format!("{v:.12}"),
                ])
            }),
        // Plain decimals around the fast path's bounds (2^24, 2^53, 17 characters).
        ("-?", "[0-9]{1,18}", prop::option::of("[0-9]{0,18}")).prop_map(|(s, i, f)| match f {
            Some(f) => format!("{s}{i}.{f}"),
            None => format!("{s}{i}"),
        }),
        prop::sample::select(vec![
            "-0.0",
            "-0",
            "0",
            "+1",
            "+0.5",
            "1.",
            "inf",
            "-inf",
            "nan",
            "1e38",
            "3.5e38",
            "1e-45",
            "16777217",
            "9007199254740993",
            "0.000000000000001",
        ])
        .prop_map(str::to_owned),
    ]
}

fn separator() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![" ", ",", ", ", " , ", "\t", "  ", ",\t"])
}

fn bits(v: [f32; 3]) -> [u32; 3] {
    // Every NaN alike.
    v.map(|x| if x.is_nan() { 0x7FC0_0000 } else { x.to_bits() })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn vec3_components_read_as_std_parses_them(
        c in prop::collection::vec(component(), 3),
        s in prop::collection::vec(separator(), 4),
        lead in any::<bool>(),
        trail in any::<bool>(),
    ) {
        let line = format!(
            "{}{}{}{}{}{}{}",
            if lead { s[3] } else { "" },
            c[0], s[0], c[1], s[1], c[2],
            if trail { s[2] } else { "" },
        );
        // Every generated spelling is one std reads; the format accepts it unless it
        // overflows `f32` without being written as an infinity (an out-of-range error).
        let v: Vec<f32> = c.iter().map(|t| t.parse::<f32>().expect(t)).collect();
        let overflow = c
            .iter()
            .zip(&v)
            .any(|(t, x)| x.is_infinite() && !t.trim_start_matches('-').eq_ignore_ascii_case("inf"));
        let v = bits([v[0], v[1], v[2]]);
        let got = <[f32; 3]>::decode(Value::from_text(&line)).map(bits);
        let got_glam = glam::Vec3::decode(Value::from_text(&line)).map(|v| bits(v.to_array()));
        if overflow {
            prop_assert!(got.is_err() && got_glam.is_err(), "{:?}", line);
        } else {
            prop_assert_eq!(got.as_ref().ok(), Some(&v), "{:?}", line);
            prop_assert_eq!(got_glam.ok(), Some(v), "{:?}", line);
        }
    }

    #[test]
    fn wrong_component_counts_are_errors(
        n in 0..7usize,
        s in separator(),
        v in "-?[0-9]{1,6}(\\.[0-9]{1,4})?",
    ) {
        let line = vec![v.as_str(); n].join(s);
        let got = glam::Vec3::decode(Value::from_text(&line));
        prop_assert_eq!(got.is_ok(), n == 3, "{:?}", line);
    }
}

#[test]
fn negative_zero_keeps_its_sign_in_every_reader() {
    for line in ["-0.0 0 -0", "-0.0,0,-0", "-0.0000000000000 0.0 -0.0e0"] {
        let v = glam::Vec3::decode(Value::from_text(line)).unwrap();
        assert_eq!(
            v.to_array().map(f32::to_bits),
            [(-0.0f32).to_bits(), 0, (-0.0f32).to_bits()],
            "{line:?}"
        );
    }
}
