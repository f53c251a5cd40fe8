//! Every common field type as a plain field of a derived kind: the file a save writes
//! (written out by hand here, from the format's rules), a load of that file giving the
//! same value bit for bit, and template overrides of an `Option` (`None` over a
//! template's `Some` and back, revert).

mod project;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

use glam::{BVec2, DQuat, DVec3, IVec2, Quat, U8Vec4, UVec3, Vec3A};
use juliet_core::{Archive, Reflect, TokenBuffer};
use juliet_entities::{Codec, Entity, EntityId};
use project::{instance, value_of, Project};

#[derive(Codec, Debug, Clone, Copy, PartialEq, Default)]
enum Mood {
    #[default]
    Calm,
    Angry,
}

/// One field of each type.
#[derive(Entity, Debug, Clone, PartialEq)]
struct Everything {
    wide: u128,
    signed_wide: i128,
    count: usize,
    offset: isize,
    letter: char,
    colour: [u8; 4],
    cell: [i32; 2],
    corners: [glam::Vec2; 2],
    grid: Vec<Vec<f32>>,
    maybe_speed: Option<f32>,
    maybe_name: Option<String>,
    maybe_moods: Vec<Option<Mood>>,
    weights: HashMap<String, f32>,
    by_level: BTreeMap<u32, Vec<u8>>,
    seen: HashSet<u64>,
    names: BTreeSet<String>,
    rotation: Quat,
    precise: DQuat,
    far: DVec3,
    tile: IVec2,
    size: UVec3,
    tint: U8Vec4,
    flags: BVec2,
    aligned: Vec3A,
}

fn sample() -> Everything {
    Everything {
        wide: u128::MAX,
        signed_wide: i128::MIN,
        count: 7,
        offset: -3,
        letter: '~',
        colour: [255, 128, 0, 255],
        cell: [-1, 4],
        corners: [glam::Vec2::new(0.5, 1.0), glam::Vec2::ZERO],
        grid: vec![vec![1.0, 2.5], vec![], vec![-0.0]],
        maybe_speed: None,
        maybe_name: Some("two words".into()),
        maybe_moods: vec![Some(Mood::Angry), None],
        weights: [("rock".to_owned(), 2.0), ("big tree".to_owned(), 0.25)].into(),
        by_level: [(10, vec![1, 2]), (2, vec![])].into(),
        seen: [3, 1].into(),
        names: ["b".to_owned(), "a:b".to_owned()].into(),
        rotation: Quat::from_xyzw(0.0, 0.5, 0.0, 1.0),
        precise: DQuat::IDENTITY,
        far: DVec3::new(0.1, 1e300, -2.0),
        tile: IVec2::new(-5, 6),
        size: UVec3::new(1, 2, 3),
        tint: U8Vec4::new(1, 2, 3, 4),
        flags: BVec2::new(true, false),
        aligned: Vec3A::new(1.0, 2.0, 3.0),
    }
}

/// The file `sample()` saves to, by the rules of docs/jasset-format.md.
const SAMPLE_FILE: &str = "\
; ClassVersion\n1\n\
; Wide\n340282366920938463463374607431768211455\n\
; SignedWide\n-170141183460469231731687303715884105728\n\
; Count\n7\n\
; Offset\n-3\n\
; Letter\n\"~\"\n\
; Colour\n255 128 0 255\n\
; Cell\n-1 4\n\
; Corners\n0.5 1.0\n0.0 0.0\n\
; Grid\n1.0 2.5\n[]\n-0.0\n\
; MaybeSpeed\n~\n\
; MaybeName\n\"two words\"\n\
; MaybeMoods\nAngry\n~\n\
; Weights\n\"big tree\": 0.25\nrock: 2.0\n\
; ByLevel\n2: []\n10: 1 2\n\
; Seen\n0x0000000000000001\n0x0000000000000003\n\
; Names\na:b\nb\n\
; Rotation\n0.0 0.5 0.0 1.0\n\
; Precise\n0.0 0.0 0.0 1.0\n\
; Far\n0.1 1e300 -2.0\n\
; Tile\n-5 6\n\
; Size\n1 2 3\n\
; Tint\n1 2 3 4\n\
; Flags\ntrue false\n\
; Aligned\n1.0 2.0 3.0\n";

#[test]
fn every_type_saves_to_its_written_form_and_loads_back_bit_exact() {
    let value = sample();
    let mut text = String::new();
    value.save(&mut Archive::saving(&mut text));
    assert_eq!(text, SAMPLE_FILE);

    let mut buffer = TokenBuffer::new();
    let doc = buffer
        .tokenize(text.as_bytes(), Path::new("everything.jasset"))
        .unwrap();
    let mut loaded = Everything::default_value();
    loaded.load(&mut Archive::loading(doc)).unwrap();
    assert_eq!(loaded, value);
    assert_eq!(loaded.grid[2][0].to_bits(), (-0.0f32).to_bits());
    for (i, p) in Everything::CLASS.properties().iter().enumerate() {
        assert!(p.same_value(&loaded, &value), "property {i} `{}`", p.key);
    }
}

#[test]
fn a_bad_element_is_reported_at_its_own_line_and_column() {
    let text = "; Weights\nrock: 2.0\ntree 1.0\n; Colour\n1 2 x 4\n";
    let mut buffer = TokenBuffer::new();
    let doc = buffer
        .tokenize(text.as_bytes(), Path::new("bad.jasset"))
        .unwrap();
    let mut value = Everything::default_value();
    let err = value.load(&mut Archive::loading(doc)).unwrap_err();
    assert_eq!((err.location.line, err.location.column), (3, 1), "{err}");
    assert!(err.to_string().contains("key: value"), "{err}");

    let text = "; Colour\n1 2 x 4\n";
    let doc = buffer
        .tokenize(text.as_bytes(), Path::new("bad.jasset"))
        .unwrap();
    let err = value.load(&mut Archive::loading(doc)).unwrap_err();
    assert_eq!((err.location.line, err.location.column), (2, 5), "{err}");
}

/// A lamp whose glow a template gives and an instance may switch off.
#[derive(Entity, Debug, Clone, PartialEq)]
struct Lamp {
    glow: Option<f32>,
    tint: [u8; 4],
}

const LAMP: &str = "Assets/Templates/Lamp.jasset";

#[test]
fn an_instance_overrides_a_templates_some_with_none_and_back() {
    let p = Project::new();
    p.template(
        "Lamp",
        "; Kind\nLamp\n; Glow\n2.5\n; Tint\n255 255 255 255\n",
    );
    p.entity("off", &instance(LAMP, 1, "; Glow\n~\n"));
    p.entity("on", &instance(LAMP, 2, ""));
    let mut world = p.load_clean();
    let lamp = |world: &juliet_entities::World, id| {
        world.manager().get::<Lamp>(EntityId(id)).unwrap().clone()
    };
    assert_eq!(lamp(&world, 1).glow, None);
    assert_eq!(lamp(&world, 2).glow, Some(2.5));

    // Switched back on through reflection, and the other one off: each file says so.
    world.set_property(EntityId(1), "Glow", "4.0").unwrap();
    world.set_property(EntityId(2), "Glow", "~").unwrap();
    world.save_world().unwrap();
    assert_eq!(
        value_of(&p.read_entity("off"), "Glow").as_deref(),
        Some("4.0")
    );
    assert_eq!(value_of(&p.read_entity("on"), "Glow").as_deref(), Some("~"));

    // Revert: the template's `Some` again, and no `Glow` in the file.
    world.revert_property(EntityId(2), "Glow").unwrap();
    assert_eq!(lamp(&world, 2).glow, Some(2.5));
    world.save_world().unwrap();
    assert_eq!(value_of(&p.read_entity("on"), "Glow"), None);
    assert_eq!(lamp(&world, 2).tint, [255; 4]);
}

/// An enum with data: as a field, its variant and each of its fields are leaves; in an
/// `Option`, the variant on the first line and its fields below.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
enum Trigger {
    #[default]
    None,
    OnTouch {
        radius: f32,
        once: bool,
    },
    Timer(f32),
}

#[derive(Entity, Debug, Clone, PartialEq)]
struct Switch {
    trigger: Trigger,
    backup: Option<Trigger>,
}

/// `text` loaded into a default `Switch`.
fn load_switch(text: &str) -> Result<Switch, juliet_core::Error> {
    let mut buffer = TokenBuffer::new();
    let doc = buffer.tokenize(text.as_bytes(), Path::new("switch.jasset"))?;
    let mut value = Switch::default_value();
    value.load(&mut Archive::loading(doc))?;
    Ok(value)
}

#[test]
fn an_enum_with_data_is_its_variant_then_one_leaf_per_field() {
    let switch = Switch {
        trigger: Trigger::OnTouch {
            radius: 2.5,
            once: true,
        },
        backup: Some(Trigger::Timer(3.0)),
    };
    let mut text = String::new();
    switch.save(&mut Archive::saving(&mut text));
    assert_eq!(
        text,
        "; ClassVersion\n1\n; Trigger\nOnTouch\n; Trigger.Radius\n2.5\n; Trigger.Once\ntrue\n\
         ; Backup\nTimer\n0: 3.0\n"
    );
    assert_eq!(load_switch(&text).unwrap(), switch);
    let keys: Vec<&str> = Switch::CLASS.properties().iter().map(|p| p.key).collect();
    assert_eq!(
        keys,
        [
            "Trigger",
            "Trigger.Radius",
            "Trigger.Once",
            "Trigger.0",
            "Backup"
        ]
    );

    // The whole enum as one value (the `Option`'s form) is not a field's: an error at
    // its second line, saying the fields are properties of their own.
    let err = load_switch("; Trigger\nOnTouch\nRadius: 2.5\n").unwrap_err();
    assert_eq!((err.location.line, err.location.column), (3, 1), "{err}");
    assert!(err.to_string().contains("such as `.Radius`"), "{err}");
    // Leaves in any spelling; a variant's line alone gives its fields' defaults.
    let loaded = load_switch("; trigger\ntimer\n; trigger.0: 4\n").unwrap();
    assert_eq!(loaded.trigger, Trigger::Timer(4.0));
    assert_eq!(
        load_switch("Trigger: OnTouch\n").unwrap().trigger,
        Trigger::OnTouch {
            radius: 0.0,
            once: false
        }
    );

    // Fields not written keep their defaults; `~` is still `None` of the `Option`.
    let loaded = load_switch("; Trigger\nontouch\n; trigger.once: 1\n; Backup\n~\n").unwrap();
    assert_eq!(
        loaded.trigger,
        Trigger::OnTouch {
            radius: 0.0,
            once: true
        }
    );
    assert_eq!(loaded.backup, None);
}

#[test]
fn a_field_of_another_variant_is_an_error_at_its_line() {
    // At the leaf's value, naming the variant that has it and the one the file gave.
    let err = load_switch("; Trigger\nTimer\n; Trigger.Radius\n2.0\n").unwrap_err();
    assert_eq!((err.location.line, err.location.column), (4, 1), "{err}");
    assert_eq!(err.key.as_deref(), Some("Trigger.Radius"), "{err}");
    let message = err.to_string();
    assert!(
        message.contains("`Radius` is a field of `OnTouch`, not of `Timer`"),
        "{message}"
    );
    // The value itself is a fine `f32`: the message is about its place alone.
    assert!(!message.contains("expected f32"), "{message}");
    // A field with no variant line takes its variant (the default has no fields).
    let once = load_switch("; Trigger.Once\ntrue\n").unwrap().trigger;
    assert_eq!(
        once,
        Trigger::OnTouch {
            radius: 0.0,
            once: true
        }
    );
}

const SWITCH: &str = "Assets/Templates/Switch.jasset";

/// The `Trigger` of entity `id`.
fn trigger(world: &juliet_entities::World, id: u64) -> Trigger {
    let switch = world.manager().get::<Switch>(EntityId(id)).unwrap();
    switch.trigger.clone()
}

#[test]
fn an_instance_overrides_one_field_of_a_variant_and_follows_the_templates_others() {
    let p = Project::new();
    let template = |radius: &str, once: &str| {
        format!("; Kind\nSwitch\n; Trigger\nOnTouch\n; Trigger.Radius\n{radius}\n; Trigger.Once\n{once}\n")
    };
    p.template("Switch", &template("1.0", "false"));
    p.entity("near", &instance(SWITCH, 1, "; Trigger.Radius\n4.0\n"));
    p.entity(
        "timed",
        &instance(SWITCH, 2, "; Trigger\nTimer\n; Trigger.0\n9.0\n"),
    );
    let mut world = p.load_clean();
    assert_eq!(
        trigger(&world, 1),
        Trigger::OnTouch {
            radius: 4.0,
            once: false
        }
    );
    assert_eq!(trigger(&world, 2), Trigger::Timer(9.0));

    // The template's `Once` changes: the instance follows it and keeps its radius.
    p.template("Switch", &template("1.0", "true"));
    world.reload_template(SWITCH).unwrap();
    assert_eq!(
        trigger(&world, 1),
        Trigger::OnTouch {
            radius: 4.0,
            once: true
        }
    );
    assert_eq!(trigger(&world, 2), Trigger::Timer(9.0));

    // Saved: the field and its variant's line, nothing of the template's other field.
    world
        .set_property(EntityId(1), "Trigger.Radius", "5")
        .unwrap();
    world.save_world().unwrap();
    let near = p.read_entity("near");
    assert_eq!(value_of(&near, "Trigger").as_deref(), Some("OnTouch"));
    assert_eq!(value_of(&near, "Trigger.Radius").as_deref(), Some("5.0"));
    assert_eq!(value_of(&near, "Trigger.Once"), None);

    // Switching the variant is one override; revert brings the template's back whole.
    world.set_property(EntityId(1), "Trigger", "Timer").unwrap();
    assert_eq!(trigger(&world, 1), Trigger::Timer(0.0));
    assert!(world
        .set_property(EntityId(1), "Trigger.Radius", "2")
        .is_err());
    world.save_world().unwrap();
    let near = p.read_entity("near");
    assert_eq!(value_of(&near, "Trigger").as_deref(), Some("Timer"));
    assert_eq!(value_of(&near, "Trigger.Radius"), None);
    world.revert_property(EntityId(1), "Trigger").unwrap();
    assert_eq!(
        trigger(&world, 1),
        Trigger::OnTouch {
            radius: 1.0,
            once: true
        }
    );
    world.save_world().unwrap();
    assert_eq!(value_of(&p.read_entity("near"), "Trigger"), None);
}

/// A foreign type (no `Codec`, and the orphan rule forbids one here) read and written by
/// a module: `Duration` as seconds.
mod seconds {
    use std::time::Duration;

    use juliet_core::{Codec, Value, ValueError, ValueErrorKind};

    pub(crate) fn encode(value: &Duration, out: &mut String) {
        value.as_secs_f64().encode(out);
    }

    pub(crate) fn decode(value: Value<'_>) -> Result<Duration, ValueError<'_>> {
        let secs = f64::decode(value)?;
        Duration::try_from_secs_f64(secs).map_err(|_| {
            let line = value.lines().next().unwrap_or_default();
            ValueError::new(ValueErrorKind::Custom("not a duration".into()), line)
        })
    }
}

#[derive(Entity, Debug, Clone, PartialEq)]
struct Beacon {
    #[jasset(with = seconds)]
    period: std::time::Duration,
    range: f32,
}

const BEACON: &str = "Assets/Templates/Beacon.jasset";

#[test]
fn a_with_module_reads_and_writes_a_foreign_type_everywhere() {
    let beacon = Beacon {
        period: std::time::Duration::from_millis(1500),
        range: 4.0,
    };
    let mut text = String::new();
    beacon.save(&mut Archive::saving(&mut text));
    assert_eq!(text, "; ClassVersion\n1\n; Period\n1.5\n; Range\n4.0\n");
    let mut buffer = TokenBuffer::new();
    let doc = buffer
        .tokenize(b"; Range\n2\n; period\n0.25\n", Path::new("b.jasset"))
        .unwrap();
    let mut loaded = Beacon::default_value();
    loaded.load(&mut Archive::loading(doc)).unwrap();
    assert_eq!(loaded.period, std::time::Duration::from_millis(250));

    let doc = buffer
        .tokenize(b"; Period\n-1.0\n", Path::new("b.jasset"))
        .unwrap();
    let err = loaded.load(&mut Archive::loading(doc)).unwrap_err();
    assert_eq!((err.location.line, err.location.column), (2, 1), "{err}");
    assert!(err.to_string().contains("not a duration"), "{err}");

    // Through the property table: an instance overrides it, reflection sets it.
    let p = Project::new();
    p.template("Beacon", "; Kind\nBeacon\n; Period\n2.0\n; Range\n9.0\n");
    p.entity("b", &instance(BEACON, 1, "; Range\n1.0\n"));
    let mut world = p.load_clean();
    let get = |world: &juliet_entities::World| {
        world.manager().get::<Beacon>(EntityId(1)).unwrap().clone()
    };
    assert_eq!(get(&world).period, std::time::Duration::from_secs(2));
    world.set_property(EntityId(1), "Period", "0.5").unwrap();
    assert_eq!(get(&world).period, std::time::Duration::from_millis(500));
    assert_eq!(
        world
            .manager()
            .property_text(EntityId(1), "Period")
            .unwrap(),
        "0.5"
    );
    world.save_world().unwrap();
    assert_eq!(
        value_of(&p.read_entity("b"), "Period").as_deref(),
        Some("0.5")
    );
}

#[test]
fn applying_a_variant_to_the_template_takes_its_fields_and_drops_the_old_ones() {
    let p = Project::new();
    p.template(
        "Switch",
        "; Kind\nSwitch\n; Trigger\nOnTouch\n; Trigger.Radius\n1.0\n; Trigger.Once\ntrue\n",
    );
    p.entity(
        "timed",
        &instance(SWITCH, 1, "; Trigger\nTimer\n; Trigger.0\n9.0\n"),
    );
    p.entity("other", &instance(SWITCH, 2, "; Trigger.Radius\n3.0\n"));
    let mut world = p.load_clean();

    // Applying the field alone applies its variant with it.
    world
        .apply_to_template(EntityId(1), &["Trigger.0"], SWITCH)
        .unwrap();
    let template = std::fs::read_to_string(p.templates_dir().join("Switch.jasset")).unwrap();
    assert_eq!(value_of(&template, "Trigger").as_deref(), Some("Timer"));
    assert_eq!(value_of(&template, "Trigger.0").as_deref(), Some("9.0"));
    assert_eq!(value_of(&template, "Trigger.Radius"), None, "{template}");
    assert_eq!(value_of(&template, "Trigger.Once"), None, "{template}");
    assert_eq!(trigger(&world, 1), Trigger::Timer(9.0));

    // The other instance overrides a field of `OnTouch`, which carries its variant: it
    // stays `OnTouch`, with the template's old `Once`, and the world loads again.
    let other = Trigger::OnTouch {
        radius: 3.0,
        once: true,
    };
    assert_eq!(trigger(&world, 2), other);
    world.save_world().unwrap();
    let text = p.read_entity("other");
    assert_eq!(
        value_of(&text, "Trigger").as_deref(),
        Some("OnTouch"),
        "{text}"
    );
    assert_eq!(
        value_of(&text, "Trigger.Once").as_deref(),
        Some("true"),
        "{text}"
    );
    let world = p.load_clean();
    assert_eq!(trigger(&world, 2), other);
    assert_eq!(trigger(&world, 1), Trigger::Timer(9.0));
}

#[test]
fn an_instance_that_overrides_only_a_field_keeps_its_variant_when_the_template_switches() {
    let p = Project::new();
    p.template(
        "Switch",
        "; Kind\nSwitch\n; Trigger\nOnTouch\n; Trigger.Radius\n2.0\n",
    );
    // Written by hand: the field alone, no variant line.
    p.entity("near", &instance(SWITCH, 1, "; Trigger.Once\ntrue\n"));
    p.load_clean();
    // The template switches on disk (an edit, a pull): the instance still loads, as
    // its field's variant, with its field and the defaults of the others.
    p.template(
        "Switch",
        "; Kind\nSwitch\n; Trigger\nTimer\n; Trigger.0\n9.0\n",
    );
    let mut world = p.load_clean();
    assert_eq!(
        trigger(&world, 1),
        Trigger::OnTouch {
            radius: 0.0,
            once: true
        }
    );
    // Saved, it carries its variant from then on.
    world
        .set_property(EntityId(1), "Trigger.Radius", "1")
        .unwrap();
    world.save_world().unwrap();
    let text = p.read_entity("near");
    assert_eq!(
        value_of(&text, "Trigger").as_deref(),
        Some("OnTouch"),
        "{text}"
    );

    // Reverting a field of a variant the template does not have: the template's enum,
    // whole, and nothing of it left to write.
    world
        .revert_property(EntityId(1), "Trigger.Radius")
        .unwrap();
    assert_eq!(trigger(&world, 1), Trigger::Timer(9.0));
    world.save_world().unwrap();
    let text = p.read_entity("near");
    assert_eq!(value_of(&text, "Trigger"), None, "{text}");
    assert_eq!(value_of(&text, "Trigger.Once"), None, "{text}");
}

#[test]
fn reverting_the_last_field_override_of_a_variant_lets_the_variant_follow_the_template() {
    let p = Project::new();
    let template = |variant: &str| format!("; Kind\nSwitch\n; Trigger\n{variant}\n");
    p.template("Switch", &template("OnTouch"));
    p.entity("near", &instance(SWITCH, 1, "; Trigger.Radius\n4.0\n"));
    let mut world = p.load_clean();
    world
        .revert_property(EntityId(1), "Trigger.Radius")
        .unwrap();
    world.save_world().unwrap();
    let text = p.read_entity("near");
    assert_eq!(value_of(&text, "Trigger"), None, "{text}");
    // The template switches: the instance follows, as it overrides nothing of it.
    p.template("Switch", &template("None"));
    world.reload_template(SWITCH).unwrap();
    assert_eq!(trigger(&world, 1), Trigger::None);
}
