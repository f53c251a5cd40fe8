//! Enums with data inside containers: a `Vec` or a map of one holds each value as a
//! record whose first line is the variant's name and whose other lines are that
//! variant's fields (`Radius: 2.5`); a composite element with an enum field writes the
//! variant as `Trigger: OnTouch` and each field by its path (`Trigger.Radius: 2.5`).

mod text;
use std::collections::BTreeMap;

use juliet_core::{PropertyType, Reflect};
use juliet_entities::{Codec, Entity};

#[derive(Codec, Clone, Debug, PartialEq, Default)]
enum Trigger {
    #[default]
    Never,
    OnTouch {
        radius: f32,
        once: bool,
    },
    Timer(f32),
}

#[derive(Codec, Clone, Debug, PartialEq, Default)]
struct Step {
    wait: f32,
    trigger: Trigger,
}

#[derive(Entity, Debug, Clone, PartialEq)]
struct Sequence {
    triggers: Vec<Trigger>,
    by_name: BTreeMap<String, Trigger>,
    steps: Vec<Step>,
}

fn sequence() -> Sequence {
    Sequence {
        triggers: vec![
            Trigger::OnTouch {
                radius: 2.5,
                once: true,
            },
            Trigger::Never,
            Trigger::Timer(-0.0),
        ],
        by_name: [("door".to_owned(), Trigger::Timer(3.0))]
            .into_iter()
            .collect(),
        steps: vec![
            Step {
                wait: 1.0,
                trigger: Trigger::OnTouch {
                    radius: 0.5,
                    once: false,
                },
            },
            Step::default(),
        ],
    }
}

/// The file `sequence()` is written as, by the format's rules.
const SEQUENCE: &str = "; ClassVersion\n1\n\
; Triggers\n-\nOnTouch\nRadius: 2.5\nOnce: true\n-\nNever\n-\nTimer\n0: -0.0\n\
; ByName\n- door\nTimer\n0: 3.0\n\
; Steps\n-\nWait: 1.0\nTrigger: OnTouch\nTrigger.Radius: 0.5\nTrigger.Once: false\n\
-\nWait: 0.0\nTrigger: Never\n";

fn save(value: &Sequence) -> String {
    text::saved(value)
}

/// Loads `text` into a default `Sequence`.
fn load(text: &str) -> Result<Sequence, juliet_core::Error> {
    text::loaded(text, "sequence.jasset")
}

#[test]
fn a_list_and_a_map_of_an_enum_with_data_write_one_record_per_value() {
    assert_eq!(save(&sequence()), SEQUENCE);
    let back = load(SEQUENCE).unwrap();
    assert_eq!(back, sequence());
    let Trigger::Timer(zero) = back.triggers[2] else {
        panic!("{back:?}")
    };
    assert_eq!(zero.to_bits(), (-0.0f32).to_bits());
    let PropertyType::List(PropertyType::EnumWithData { name, variants }) =
        Sequence::CLASS.properties()[0].property_type
    else {
        panic!("{:?}", Sequence::CLASS.properties()[0].property_type)
    };
    assert_eq!((*name, variants.len()), ("Trigger", 3));
}

#[test]
fn hand_written_records_read_in_any_order_and_spelling() {
    let text = "; triggers\n-\nontouch\nonce: true\n-\ntimer\n\
                ; steps\n-\ntrigger.radius: 4\ntrigger: OnTouch\n-\nTrigger: Timer\nTrigger.0: 2\n";
    let err = load(text).unwrap_err();
    // The field came before its variant's line: the variant in use (`Never`) lacks it.
    assert_eq!(err.location.line, 9, "{err}");
    assert!(
        err.to_string()
            .contains("the variant in use: write the variant `OnTouch` before it"),
        "{err}"
    );

    let text = "; triggers\n-\nontouch\nonce: true\n-\ntimer\n\
                ; steps\n-\ntrigger: OnTouch\ntrigger.radius: 4\n-\nTrigger: Timer\nTrigger.0: 2\n";
    let value = load(text).unwrap();
    assert_eq!(
        value.triggers,
        [
            Trigger::OnTouch {
                radius: 0.0,
                once: true
            },
            Trigger::Timer(0.0)
        ]
    );
    assert_eq!(
        value.steps,
        [
            Step {
                wait: 0.0,
                trigger: Trigger::OnTouch {
                    radius: 4.0,
                    once: false
                }
            },
            Step {
                wait: 0.0,
                trigger: Trigger::Timer(2.0)
            }
        ]
    );
}

#[test]
fn a_field_of_another_variant_or_an_unknown_variant_is_an_error_at_its_line() {
    for (text, line, says) in [
        (
            "; Triggers\n-\nTimer\nRadius: 1\n",
            4,
            "`Radius` is a field of `OnTouch`, not of `Timer`, the variant in use",
        ),
        ("; Triggers\n-\nSometimes\n", 3, "Sometimes"),
        ("; Triggers\n-\nOnTouch\nRadius: 1\nradius: 2\n", 5, "twice"),
        ("; ByName\n- door\nOnTouch\nRadius: far\n", 4, "far"),
        (
            "; Steps\n-\nTrigger: Timer\nTrigger.Once: true\n",
            4,
            "`OnTouch`",
        ),
        ("; Steps\n-\nTrigger: Later\n", 3, "Later"),
    ] {
        let err = load(text).unwrap_err();
        assert_eq!(err.location.line, line, "{text:?}: {err}");
        assert!(err.to_string().contains(says), "{text:?}: {err}");
    }
}

#[test]
fn changing_one_field_of_one_element_changes_one_line() {
    let before = save(&sequence());
    let mut value = sequence();
    value.steps[0].trigger = Trigger::OnTouch {
        radius: 0.5,
        once: true,
    };
    value.triggers[0] = Trigger::OnTouch {
        radius: 9.0,
        once: true,
    };
    let after = save(&value);
    let changed = text::changed_lines(&before, &after);
    assert_eq!(
        changed,
        [
            ("Radius: 2.5", "Radius: 9.0"),
            ("Trigger.Once: false", "Trigger.Once: true")
        ]
    );
}
