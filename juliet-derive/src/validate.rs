//! The checks of a parsed [`Container`] (docs/design.md, section 3.2): generics, versions,
//! `migrate`, the class name, and every key against every other one.

use std::collections::HashMap;

use proc_macro2::Span;

use crate::ast::{Container, SpannedKey};
use crate::ctxt::Ctxt;
use crate::key::{key_crc, key_problem, normalize};

/// Runs every check, reporting to `cx`.
pub(crate) fn check(cx: &Ctxt, cont: &Container<'_>) {
    check_generics(cx, cont.input);
    check_version(cx, cont);
    check_name(cx, cont);
    check_fields(cx, cont);
    check_keys(cx, cont);
}

/// Generic parameters are refused: a class descriptor is one `'static` table per type.
pub(crate) fn check_generics(cx: &Ctxt, input: &syn::DeriveInput) {
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            "a derived class cannot be generic: its Class descriptor and property table \
             are one static table per type; derive on a concrete struct instead",
        );
    } else if let Some(where_clause) = &input.generics.where_clause {
        cx.error_spanned_by(where_clause, "a derived class cannot have a where clause");
    }
}

fn check_version(cx: &Ctxt, cont: &Container<'_>) {
    if let Some((0, lit)) = &cont.attrs.version {
        cx.error_spanned_by(
            lit,
            "`version = 0` is not allowed: class versions start at 1 (a file without \
             `ClassVersion` is read as the current version)",
        );
    }
    if let Some(migrate) = &cont.attrs.migrate {
        if cont.version() == 1 {
            cx.error_spanned_by(
                migrate,
                "`migrate` needs `version = 2` or more: a class at version 1 has no older \
                 version to migrate from",
            );
        }
    }
}

fn check_name(cx: &Ctxt, cont: &Container<'_>) {
    let mut names: Vec<(String, String, u32)> = Vec::new();
    let named = cont.attrs.name.iter().map(|lit| (lit, "class name"));
    let aliases = cont.attrs.aliases.iter().map(|lit| (lit, "class alias"));
    if cont.attrs.name.is_none() {
        let text = cont.class_name();
        names.push((text.clone(), normalize(&text), key_crc(&text)));
    }
    for (lit, what) in named.chain(aliases) {
        let text = lit.value();
        if let Some(problem) = key_problem(&text) {
            cx.error_spanned_by(
                lit,
                format!(
                    "{what} {text:?} {problem}: class names are written under `Kind` and \
                     must be ASCII identifiers"
                ),
            );
            continue;
        }
        let (normalized, crc) = (normalize(&text), key_crc(&text));
        if let Some((other, ..)) = names.iter().find(|(_, n, c)| *n == normalized || *c == crc) {
            cx.error_spanned_by(
                lit,
                format!(
                    "{what} {text:?} is the same class name as `{other}` (names match \
                     ignoring ASCII case and `_`, and must differ in CRC-32): a file's \
                     `Kind` could not tell them apart"
                ),
            );
            continue;
        }
        names.push((text, normalized, crc));
    }
}

fn check_fields(cx: &Ctxt, cont: &Container<'_>) {
    for field in &cont.fields {
        let attrs = &field.attrs;
        if attrs.skip.is_some() {
            if let Some(lit) = &attrs.rename {
                cx.error_spanned_by(
                    lit,
                    "`rename` on a `skip` field has no effect: a skipped field has no key",
                );
            }
            for lit in &attrs.aliases {
                cx.error_spanned_by(
                    lit,
                    "`alias` on a `skip` field has no effect: a skipped field is never read",
                );
            }
            for lit in &attrs.migrated_from {
                cx.error_spanned_by(
                    lit,
                    "`migrated_from` on a `skip` field has no effect: a skipped field is no \
                     property, so it is never an instance's override",
                );
            }
        }
        check_migrated_from(cx, cont, &attrs.migrated_from);
        if let (Some(expr), Some(_)) = (&attrs.default, cont.attrs.default) {
            cx.error_spanned_by(
                expr,
                "this field default would never be used: `#[jasset(default)]` on the struct \
                 makes `Default::default()` the whole default-init stub",
            );
        }
    }
}

/// Each `migrated_from` key of a field must be a deprecated key of the struct, named
/// once.
fn check_migrated_from(cx: &Ctxt, cont: &Container<'_>, keys: &[syn::LitStr]) {
    let deprecated: Vec<String> = cont.attrs.deprecated.iter().map(|l| l.value()).collect();
    for (i, lit) in keys.iter().enumerate() {
        let text = lit.value();
        let normal = normalize(&text);
        if keys[..i].iter().any(|k| normalize(&k.value()) == normal) {
            cx.error_spanned_by(lit, format!("`migrated_from = \"{text}\"` is named twice"));
        } else if !deprecated.iter().any(|d| normalize(d) == normal) {
            let declared = if deprecated.is_empty() {
                "the struct declares none".to_owned()
            } else {
                let list: Vec<String> = deprecated.iter().map(|d| format!("`{d}`")).collect();
                format!("the struct declares {}", list.join(", "))
            };
            cx.error_spanned_by(
                lit,
                format!(
                    "`{text}` is not a deprecated key of this struct ({declared}): declare \
                     it with `#[jasset(deprecated = \"{text}\")]` on the struct"
                ),
            );
        }
    }
}

/// What a key is, for messages.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Reserved,
    /// A base-tier key of entity files (or one of its other spellings).
    Base,
    Key,
    Alias,
    Deprecated,
}

/// One key of the class with its description.
struct KeyUse {
    key: SpannedKey,
    role: Role,
    /// "key `MaxSpeed` of field `max_speed`".
    what: String,
}

/// Every key of the class (written keys, aliases, deprecated keys, and the reserved
/// `ClassVersion`) must be a valid key and distinct from every other one, both after
/// normalization and in CRC-32.
fn check_keys(cx: &Ctxt, cont: &Container<'_>) {
    let mut uses = reserved_keys();
    uses.extend(field_keys(cx, cont));
    uses.extend(deprecated_keys(cont));
    check_distinct(cx, cont, &uses);
}

/// The keys no field may take: `ClassVersion` and every spelling of the base keys of
/// entity files.
fn reserved_keys() -> Vec<KeyUse> {
    let mut uses = vec![KeyUse {
        key: SpannedKey {
            text: juliet_key::CLASS_VERSION.to_owned(),
            span: Span::call_site(),
        },
        role: Role::Reserved,
        what: format!("the reserved key `{}`", juliet_key::CLASS_VERSION),
    }];
    for (base, spellings) in juliet_key::BASE_KEYS {
        for text in std::iter::once(base).chain(spellings.iter().copied()) {
            let what = if text == base {
                format!("the base key `{base}`")
            } else {
                format!("the base key `{base}` (spelt `{text}`)")
            };
            uses.push(KeyUse {
                key: SpannedKey {
                    text: text.to_owned(),
                    span: Span::call_site(),
                },
                role: Role::Base,
                what,
            });
        }
    }
    uses
}

/// The key and aliases of each property, reporting a `flatten` field that also has
/// `with`, a rename or aliases (a flattened field has no key of its own: its
/// composite's leaves are checked when the table is built).
fn field_keys(cx: &Ctxt, cont: &Container<'_>) -> Vec<KeyUse> {
    let mut uses = Vec::new();
    for field in cont.properties() {
        let name = field.name();
        if let (Some(span), Some(_)) = (field.attrs.flatten, &field.attrs.with) {
            cx.error_at(
                span,
                format!("field `{name}` cannot be both `flatten` and `with`"),
            );
        }
        if let Some(span) = field.attrs.flatten {
            if field.attrs.rename.is_some() || !field.aliases.is_empty() {
                cx.error_at(
                    span,
                    format!(
                        "field `{name}` is `flatten`: its composite's leaves are the class's \
                         own keys, so it has no key to rename or alias"
                    ),
                );
            }
            continue;
        }
        let renamed = if field.attrs.rename.is_some() {
            " (renamed)"
        } else {
            ""
        };
        uses.push(KeyUse {
            key: field.key.clone(),
            role: Role::Key,
            what: format!("key `{}` of field `{name}`{renamed}", field.key.text),
        });
        for alias in &field.aliases {
            uses.push(KeyUse {
                key: alias.clone(),
                role: Role::Alias,
                what: format!("alias `{}` of field `{name}`", alias.text),
            });
        }
    }
    uses
}

/// The struct's `deprecated` keys.
fn deprecated_keys(cont: &Container<'_>) -> Vec<KeyUse> {
    cont.attrs
        .deprecated
        .iter()
        .map(|lit| KeyUse {
            key: SpannedKey {
                text: lit.value(),
                span: lit.span(),
            },
            role: Role::Deprecated,
            what: format!("deprecated key `{}`", lit.value()),
        })
        .collect()
}

/// Reports each key of `uses` that is not an ASCII identifier, or that is the same key
/// as one before it (after normalization, or in CRC-32).
fn check_distinct(cx: &Ctxt, cont: &Container<'_>, uses: &[KeyUse]) {
    let mut by_normal: HashMap<String, usize> = HashMap::new();
    let mut by_crc: HashMap<u32, usize> = HashMap::new();
    for (i, u) in uses.iter().enumerate() {
        if !matches!(u.role, Role::Reserved | Role::Base) {
            if let Some(problem) = key_problem(&u.key.text) {
                let hint = if u.role == Role::Key && !u.key.text.is_ascii() {
                    "; give the field an ASCII key with `#[jasset(rename = \"Key\")]`"
                } else {
                    ""
                };
                cx.error_at(
                    u.key.span,
                    format!(
                        "{} {problem}: keys are ASCII identifiers [A-Za-z_][A-Za-z0-9_]*{hint}",
                        u.what
                    ),
                );
                continue;
            }
        }
        let normal = normalize(&u.key.text);
        let crc = key_crc(&u.key.text);
        if let Some(&j) = by_normal.get(&normal) {
            let mut message = same_key_message(&uses[j], u);
            if uses[j].role == Role::Base && u.role == Role::Key {
                let suggestion = format!(
                    "{}{}",
                    cont.class_name(),
                    juliet_key::pascal_case(&u.key.text)
                );
                message.push_str(&format!(
                    ": give the field a key of its own, e.g. `#[jasset(rename = \"{suggestion}\")]`"
                ));
            }
            cx.error_at(u.key.span, message);
            continue;
        }
        if let Some(&j) = by_crc.get(&crc) {
            cx.error_at(
                u.key.span,
                format!(
                    "{} has the same CRC-32 ({crc:#010X}) as {}: files are matched by key \
                     CRC, so one of them must be renamed",
                    u.what, uses[j].what
                ),
            );
            continue;
        }
        by_normal.insert(normal, i);
        by_crc.insert(crc, i);
    }
}

/// The message for `later`, which normalizes to the same key as `earlier`.
fn same_key_message(earlier: &KeyUse, later: &KeyUse) -> String {
    let note = "(keys ignore ASCII case and `_`)";
    match (earlier.role, later.role) {
        (Role::Base, _) => format!(
            "{} is read as {} in every entity file (the base record reads it before the class)",
            later.what, earlier.what
        ),
        (Role::Reserved, _) => format!(
            "{} is {}: the derive writes the class version under it; rename the field",
            later.what, earlier.what
        ),
        (Role::Key | Role::Alias, Role::Deprecated)
        | (Role::Deprecated, Role::Key | Role::Alias) => {
            format!(
                "{} is also {} {note}: a deprecated key is only read by migrations and is \
                 never written, so it cannot also be a live key",
                later.what, earlier.what
            )
        }
        _ => format!(
            "{} and {} are the same key {note}",
            later.what, earlier.what
        ),
    }
}
