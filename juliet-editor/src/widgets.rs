//! One egui widget per property type ([`PropertyType`]), editing the property's value
//! text (the file's value syntax, as [`juliet_entities::EntityManager::property_text`]
//! gives it and [`juliet_entities::World::set_property`] takes it): the widgets never see
//! the field itself, so every kind, a game's included, is edited through its codec.

use egui::{DragValue, Id, Response, TextEdit, Ui};
use juliet_core::{
    keys_equal, record_groups, split_entry, Codec, PropertyType, Value, EMPTY_LIST, EMPTY_MAP,
    ITEM_MARK, NONE,
};

/// Draws the widget for a value of type `ty` whose current text is `text`, labelled
/// (for screen readers and tests) by the widget `label`; `id` keeps the state of a
/// field being typed in. Returns the new value text when the user changed it.
pub fn value_widget(
    ui: &mut Ui,
    ty: &PropertyType,
    text: &str,
    label: Id,
    id: Id,
) -> Option<String> {
    match ty {
        PropertyType::Bool => {
            let mut on = text.trim() == "true";
            let response = ui.checkbox(&mut on, "").labelled_by(label);
            response.changed().then(|| on.to_string())
        }
        PropertyType::I8 => int(ui, text, label, i8::MIN as i64, i8::MAX as i64),
        PropertyType::I16 => int(ui, text, label, i16::MIN as i64, i16::MAX as i64),
        PropertyType::I32 => int(ui, text, label, i32::MIN as i64, i32::MAX as i64),
        PropertyType::I64 => int(ui, text, label, i64::MIN, i64::MAX),
        PropertyType::U8 => uint(ui, text, label, u8::MAX as u64),
        PropertyType::U16 => uint(ui, text, label, u16::MAX as u64),
        PropertyType::U32 => uint(ui, text, label, u32::MAX as u64),
        PropertyType::F32 | PropertyType::F64 => {
            let mut value: f64 = text.trim().parse().unwrap_or(0.0);
            let response = drag(ui, &mut value, label);
            response.changed().then(|| float_text(ty, value))
        }
        PropertyType::Floats(n) => floats(ui, *n, text, label),
        PropertyType::String => {
            // The field shows the string itself; the value text may be quoted.
            let old = String::decode(Value::from_text(text)).unwrap_or_else(|_| text.to_owned());
            let mut value = old.clone();
            let response = ui
                .add(TextEdit::singleline(&mut value).min_size(egui::vec2(280.0, 0.0)))
                .labelled_by(label);
            (response.changed() && value != old).then(|| {
                let mut out = String::new();
                value.encode(&mut out);
                out
            })
        }
        PropertyType::Enum { variants, .. } => {
            variant_choice(ui, variants.iter().copied(), text.trim(), label, id).map(str::to_owned)
        }
        PropertyType::EnumWithData { variants, .. } => {
            enum_with_data(ui, variants, text, label, id)
        }
        PropertyType::List(inner) => list(ui, inner, text, label, id),
        PropertyType::Option(inner) => option(ui, inner, text, label, id),
        // A composite's record: its `Key: value` lines.
        PropertyType::Record { .. } => buffered_text(ui, text, label, id, true),
        // The types of `is_text_edited`.
        _ => buffered_text(ui, text, label, id, false),
    }
}

/// Whether a value of `ty` is edited as its text, committed when the field loses focus
/// since a half-typed value does not decode: `u64` (ids, hashes, written in hex), the
/// 128-bit and pointer-sized integers, `char`, arrays, options, maps, sets and game
/// codecs.
fn is_text_edited(ty: &PropertyType) -> bool {
    matches!(
        ty,
        PropertyType::U64
            | PropertyType::I128
            | PropertyType::U128
            | PropertyType::Isize
            | PropertyType::Usize
            | PropertyType::Char
            | PropertyType::Array(..)
            | PropertyType::Map(..)
            | PropertyType::Set(_)
            | PropertyType::Record { .. }
            | PropertyType::Custom(_)
    )
}

/// A drag value with a speed that suits its size.
fn drag<N: egui::emath::Numeric>(ui: &mut Ui, value: &mut N, label: Id) -> Response {
    let speed = (value.to_f64().abs() * 0.01).clamp(0.01, 100.0);
    ui.add(DragValue::new(value).speed(speed))
        .labelled_by(label)
}

fn int(ui: &mut Ui, text: &str, label: Id, min: i64, max: i64) -> Option<String> {
    let mut value: i64 = text.trim().parse().unwrap_or(0);
    let response = ui
        .add(DragValue::new(&mut value).range(min..=max).speed(0.2))
        .labelled_by(label);
    response.changed().then(|| value.to_string())
}

fn uint(ui: &mut Ui, text: &str, label: Id, max: u64) -> Option<String> {
    let mut value: u64 = text.trim().parse().unwrap_or(0);
    let response = ui
        .add(DragValue::new(&mut value).range(0..=max).speed(0.2))
        .labelled_by(label);
    response.changed().then(|| value.to_string())
}

/// The text of a float as its codec reads it (always with a decimal point, as the
/// writer puts it).
fn float_text(ty: &PropertyType, value: f64) -> String {
    let text = if matches!(ty, PropertyType::F32) {
        (value as f32).to_string()
    } else {
        value.to_string()
    };
    if text.contains(['.', 'e', 'E', 'N', 'i']) {
        text
    } else {
        format!("{text}.0")
    }
}

/// One drag value per component of an `n`-float value (`1.0, 2.0, 3.0`).
fn floats(ui: &mut Ui, n: usize, text: &str, label: Id) -> Option<String> {
    let mut values: Vec<f32> = text
        .split([',', ' ', '\t'])
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap_or(0.0))
        .collect();
    values.resize(n, 0.0);
    let mut changed = false;
    ui.horizontal(|ui| {
        for value in &mut values {
            changed |= drag(ui, value, label).changed();
        }
    });
    changed.then(|| {
        values
            .iter()
            .map(|v| float_text(&PropertyType::F32, f64::from(*v)))
            .collect::<Vec<_>>()
            .join(", ")
    })
}

/// The state of a [`buffered_text`] field while it has focus: the value text it was
/// opened on, and what is typed.
#[derive(Clone)]
struct Buffer {
    opened_on: String,
    typed: String,
}

/// A text field whose edits reach the world when it loses focus (or Enter is pressed).
/// A value that changes under the field while it is typed in (an undo, a reload) wins:
/// the typing is dropped, so a stale text is never written back over it.
/// `lines`: several lines (Enter is a line break; the edit commits when the field loses
/// focus).
fn buffered_text(ui: &mut Ui, text: &str, label: Id, id: Id, lines: bool) -> Option<String> {
    let mut buffer = ui
        .data_mut(|d| d.get_temp::<Buffer>(id))
        .filter(|b| b.opened_on == text)
        .unwrap_or_else(|| Buffer {
            opened_on: text.to_owned(),
            typed: text.to_owned(),
        });
    let edit = match lines {
        true => TextEdit::multiline(&mut buffer.typed).desired_rows(2),
        false => TextEdit::singleline(&mut buffer.typed),
    };
    let response = ui
        .add(edit.min_size(egui::vec2(280.0, 0.0)))
        .labelled_by(label);
    if response.has_focus() {
        ui.data_mut(|d| d.insert_temp(id, buffer));
        None
    } else {
        ui.data_mut(|d| d.remove::<Buffer>(id));
        (response.lost_focus() && buffer.typed != text).then_some(buffer.typed)
    }
}

/// The value text that the field `id` of a value of type `ty` (current text `text`)
/// holds typed but not yet committed: a [`buffered_text`] field with focus, or a list
/// with such an element (the whole list's text then). `None` when nothing is pending.
pub(crate) fn pending_text(ui: &Ui, ty: &PropertyType, text: &str, id: Id) -> Option<String> {
    match ty {
        ty if is_text_edited(ty) => ui
            .data(|d| d.get_temp::<Buffer>(id))
            .filter(|b| b.opened_on == text && b.typed != text)
            .map(|b| b.typed),
        PropertyType::Option(inner) if text.trim() != NONE => {
            pending_text(ui, inner, text, id.with("some"))
        }
        PropertyType::List(inner) => {
            let mut items = list_items(inner, text);
            let (i, new) = (items.iter().enumerate())
                .find_map(|(i, item)| Some((i, pending_text(ui, inner, item, id.with(i))?)))?;
            items[i] = new;
            Some(list_text(inner, &items))
        }
        _ => None,
    }
}

/// The elements of the value text of a list of `inner`: its value lines, or for a list
/// of records the lines after each `-` line.
fn list_items(inner: &PropertyType, text: &str) -> Vec<String> {
    if text.is_empty() || text.trim() == EMPTY_LIST {
        return Vec::new();
    }
    if !holds_records(inner) {
        return text.lines().map(str::to_owned).collect();
    }
    // The records as the codec groups them; a text that is no list of records stays
    // one field, so that nothing typed is lost.
    match record_groups(&Value::from_text(text)) {
        Ok(groups) => (groups.into_iter())
            .map(|(_, lines)| lines.join("\n"))
            .collect(),
        Err(_) => vec![text.to_owned()],
    }
}

/// Whether a list of `inner` writes each element after a `-` line: a composite's record,
/// or an enum with data (its variant's line, then its fields' lines).
fn holds_records(inner: &PropertyType) -> bool {
    matches!(
        inner,
        PropertyType::Record { .. } | PropertyType::EnumWithData { .. }
    )
}

/// The value text of a list of `inner` whose elements are `items` ([`list_items`]).
fn list_text(inner: &PropertyType, items: &[String]) -> String {
    if items.is_empty() {
        return EMPTY_LIST.to_owned();
    }
    if !holds_records(inner) {
        return items.join("\n");
    }
    let records = items.iter().map(|item| match item.is_empty() {
        true => ITEM_MARK.to_owned(),
        false => format!("{ITEM_MARK}\n{item}"),
    });
    records.collect::<Vec<_>>().join("\n")
}

/// The variants of an enum with data, each with its fields' keys and types.
type Variants = [(
    &'static str,
    &'static [(&'static str, &'static PropertyType)],
)];

/// An enum with data: a combo box of its variants (choosing one gives that variant
/// with its fields' defaults), then one row per field of the variant in use, each with
/// its type's own widget, labelled by the field's key.
fn enum_with_data(
    ui: &mut Ui,
    variants: &'static Variants,
    text: &str,
    label: Id,
    id: Id,
) -> Option<String> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let current = lines.next().unwrap_or_default();
    let written: Vec<(&str, &str)> = lines.filter_map(split_entry).collect();
    let index = variants
        .iter()
        .position(|(name, _)| name.eq_ignore_ascii_case(current));
    let mut out = None;
    ui.vertical(|ui| {
        let names = variants.iter().map(|(name, _)| *name);
        if let Some(chosen) = variant_choice(ui, names, current, label, id) {
            out = Some(chosen.to_owned());
        }
        let Some((name, fields)) = index.map(|i| variants[i]) else {
            return;
        };
        let mut values: Vec<String> = fields
            .iter()
            .map(|(key, ty)| {
                let found = written.iter().find(|(k, _)| keys_equal(k, key));
                found.map_or_else(|| default_element(ty), |(_, v)| (*v).to_owned())
            })
            .collect();
        for (i, (key, ty)) in fields.iter().enumerate() {
            ui.horizontal(|ui| {
                let field_label = ui.label(*key).id;
                if let Some(new) = value_widget(ui, ty, &values[i], field_label, id.with(key)) {
                    values[i] = new;
                    let lines = fields
                        .iter()
                        .zip(&values)
                        .map(|((k, _), v)| format!("{k}: {v}"));
                    let body: Vec<String> = std::iter::once(name.to_owned()).chain(lines).collect();
                    out = Some(body.join("\n"));
                }
            });
        }
    });
    out
}

/// A combo box of `names` showing `current`, labelled by `label`: the name chosen, if
/// it is another one.
fn variant_choice(
    ui: &mut Ui,
    names: impl Iterator<Item = &'static str>,
    current: &str,
    label: Id,
    id: Id,
) -> Option<&'static str> {
    let mut chosen = None;
    egui::ComboBox::from_id_salt(id)
        .selected_text(current)
        .show_ui(ui, |ui| {
            for name in names {
                let selected = name.eq_ignore_ascii_case(current);
                if ui.selectable_label(selected, name).clicked() && !selected {
                    chosen = Some(name);
                }
            }
        })
        .response
        .labelled_by(label);
    chosen
}

/// The text of a new element of a list of `inner`.
fn default_element(inner: &PropertyType) -> String {
    match inner {
        PropertyType::Bool => "false".into(),
        PropertyType::F32 | PropertyType::F64 => "0.0".into(),
        PropertyType::Floats(n) => vec!["0.0"; *n].join(", "),
        PropertyType::Enum { variants, .. } => variants.first().copied().unwrap_or("").into(),
        PropertyType::EnumWithData { variants, .. } => {
            variants.first().map_or("", |(name, _)| *name).into()
        }
        // An empty string must be quoted: an empty line is no element.
        PropertyType::String => "\"\"".into(),
        PropertyType::List(_) | PropertyType::Set(_) => EMPTY_LIST.into(),
        PropertyType::Map(..) => EMPTY_MAP.into(),
        PropertyType::Option(_) => NONE.into(),
        PropertyType::Array(item, n) => vec![default_element(item); *n].join(" "),
        // A record without lines is the composite's default.
        PropertyType::Custom(_) | PropertyType::Record { .. } => String::new(),
        _ => "0".into(),
    }
}

/// An `Option`: a checkbox, ticked for `Some` (ticking it gives the inner type's first
/// value, unticking writes `~`), and the inner value's own widget while it is ticked.
fn option(ui: &mut Ui, inner: &PropertyType, text: &str, label: Id, id: Id) -> Option<String> {
    let is_some = text.trim() != NONE;
    let mut on = is_some;
    let mut out = None;
    ui.horizontal(|ui| {
        if ui.checkbox(&mut on, "").labelled_by(label).changed() {
            out = Some(if on {
                default_element(inner)
            } else {
                NONE.to_owned()
            });
        }
        if is_some {
            if let Some(new) = value_widget(ui, inner, text, label, id.with("some")) {
                out = Some(new);
            }
        }
    });
    out
}

/// A list: one row per element (its own widget and a remove button), then an add
/// button. Elements are value lines of the property.
fn list(ui: &mut Ui, inner: &PropertyType, text: &str, label: Id, id: Id) -> Option<String> {
    let mut items = list_items(inner, text);
    let mut changed = false;
    let mut remove = None;
    ui.vertical(|ui| {
        for (i, item) in items.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                if let Some(new) = value_widget(ui, inner, item, label, id.with(i)) {
                    *item = new;
                    changed = true;
                }
                if ui.small_button("Remove").clicked() {
                    remove = Some(i);
                }
            });
        }
        if ui.small_button("Add element").clicked() {
            items.push(default_element(inner));
            changed = true;
        }
    });
    if let Some(i) = remove {
        items.remove(i);
        changed = true;
    }
    changed.then(|| list_text(inner, &items))
}
