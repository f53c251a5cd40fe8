use super::*;
use juliet_core::{Codec, Value, ValueErrorKind};

fn enc(v: SimFloat) -> String {
    let mut s = String::new();
    v.encode(&mut s);
    s
}

fn dec(text: &str) -> Result<SimFloat, ValueErrorKind> {
    SimFloat::decode(Value::from_text(text)).map_err(|e| e.kind)
}

#[test]
fn constructors_agree() {
    assert_eq!(SimFloat::from_int(3), SimFloat::from_float(3.0));
    assert_eq!(SimFloat::from_meters(-2.5).to_bits(), -5i64 << 31);
    assert_eq!(SimFloat::from_int(i32::MIN), SimFloat::MIN);
    assert_eq!(SimFloat::from_int(-7).to_float(), -7.0);
    assert_eq!(
        SimFloat::from_float(0.1).to_f64(),
        (0.1f32 as f64 * 4294967296.0).round() / 4294967296.0
    );
    assert_eq!(SimFloat::from_float(f32::NAN), SimFloat::ZERO);
    assert_eq!(SimFloat::from_float(f32::INFINITY), SimFloat::MAX);
    assert_eq!(SimFloat::from_float(-1e30), SimFloat::MIN);
}

#[test]
fn arithmetic_saturates_at_the_edges() {
    let two = SimFloat::from_int(2);
    assert_eq!(two + two, SimFloat::from_int(4));
    assert_eq!(two - SimFloat::from_int(5), SimFloat::from_int(-3));
    assert_eq!(two * SimFloat::from_float(0.25), SimFloat::from_float(0.5));
    assert_eq!(
        SimFloat::ONE / SimFloat::from_int(4),
        SimFloat::from_float(0.25)
    );
    assert_eq!(-two, SimFloat::from_int(-2));
    assert_eq!(SimFloat::MAX + SimFloat::EPSILON, SimFloat::MAX);
    assert_eq!(SimFloat::MIN - SimFloat::EPSILON, SimFloat::MIN);
    assert_eq!(SimFloat::MAX * two, SimFloat::MAX);
    assert_eq!(SimFloat::MAX * -two, SimFloat::MIN);
    assert_eq!(-SimFloat::MIN, SimFloat::MAX);
    assert_eq!(SimFloat::MIN.abs(), SimFloat::MAX);
    assert_eq!(two / SimFloat::ZERO, SimFloat::MAX);
    assert_eq!(-two / SimFloat::ZERO, SimFloat::MIN);
    assert_eq!(SimFloat::ZERO / SimFloat::ZERO, SimFloat::ZERO);
    assert_eq!(SimFloat::MAX.checked_add(SimFloat::EPSILON), None);
    assert_eq!(SimFloat::MIN.checked_sub(SimFloat::EPSILON), None);
    assert_eq!(SimFloat::MAX.checked_mul(two), None);
    assert_eq!(two.checked_div(SimFloat::ZERO), None);
    assert_eq!(two.checked_mul(two), Some(SimFloat::from_int(4)));
    let mut x = SimFloat::ONE;
    x += two;
    x -= SimFloat::ONE;
    x *= two;
    x /= SimFloat::from_int(8);
    assert_eq!(x, SimFloat::from_float(0.5));
}

#[test]
fn ordering_follows_the_values() {
    let mut v = [
        SimFloat::from_int(3),
        SimFloat::MIN,
        SimFloat::from_float(-0.5),
        SimFloat::MAX,
        SimFloat::EPSILON,
        SimFloat::ZERO,
    ];
    v.sort();
    let floats: Vec<f64> = v.iter().map(|x| x.to_f64()).collect();
    assert!(floats.windows(2).all(|w| w[0] < w[1]), "{floats:?}");
    assert_eq!(
        SimFloat::from_int(1).max(SimFloat::from_int(2)),
        SimFloat::from_int(2)
    );
}

#[test]
fn display_is_exact_decimal() {
    assert_eq!(SimFloat::from_float(3.5).to_string(), "3.5");
    assert_eq!(SimFloat::from_int(-2).to_string(), "-2");
    assert_eq!(SimFloat::from_bits(1 << 26).to_string(), "0.015625");
    assert_eq!(format!("{:?}", SimFloat::ONE), "SimFloat(1)");
}

#[test]
fn codec_round_trips_edges_bit_exactly() {
    let edges = [
        SimFloat::ZERO,
        SimFloat::ONE,
        -SimFloat::ONE,
        SimFloat::EPSILON,
        -SimFloat::EPSILON,
        SimFloat::MAX,
        SimFloat::MIN,
        SimFloat::from_float(0.1),
        SimFloat::from_bits(0x1234_5678_9ABC_DEF0),
        SimFloat::from_bits(-0x0FED_CBA9_8765_4321),
    ];
    for v in edges {
        let text = enc(v);
        assert!(text.contains('.'), "{text}");
        assert_eq!(dec(&text), Ok(v), "{text}");
    }
    // A cheap spread of bit patterns.
    let mut bits: i64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..2000 {
        bits = bits
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let v = SimFloat::from_bits(bits);
        assert_eq!(dec(&enc(v)), Ok(v), "{}", enc(v));
    }
    assert_eq!(enc(SimFloat::from_int(10)), "10.0");
    assert_eq!(enc(SimFloat::from_float(-0.015625)), "-0.015625");
}

#[test]
fn codec_reads_other_forms_and_refuses_bad_text() {
    assert_eq!(dec("+3"), Ok(SimFloat::from_int(3)));
    assert_eq!(dec(" 2.25 "), Ok(SimFloat::from_float(2.25)));
    assert_eq!(dec("1e3"), Ok(SimFloat::from_int(1000)));
    assert_eq!(dec("-2147483648"), Ok(SimFloat::MIN));
    assert_eq!(
        dec("2147483648"),
        Err(ValueErrorKind::OutOfRange("SimFloat"))
    );
    assert_eq!(dec("-1e10"), Err(ValueErrorKind::OutOfRange("SimFloat")));
    assert_eq!(dec("abc"), Err(ValueErrorKind::InvalidNumber));
    assert_eq!(dec("inf"), Err(ValueErrorKind::InvalidNumber));
    assert_eq!(dec("nan"), Err(ValueErrorKind::InvalidNumber));
    assert_eq!(dec("1.5.2"), Err(ValueErrorKind::InvalidNumber));
    assert_eq!("x".parse::<SimFloat>(), Err(ParseSimFloatError::Invalid));
}
