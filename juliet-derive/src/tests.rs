//! Snapshots of the expansion (pretty-printed with `prettyplease`) of representative
//! inputs, and checks that errors are collected and reported together.

use proc_macro2::TokenStream;
use syn::DeriveInput;

/// The expansion of `#[derive(Entity)]` on `input`, pretty-printed.
fn expand_entity(input: DeriveInput) -> String {
    pretty(crate::entity::derive(&input))
}

/// The expansion of `#[derive(Codec)]` on `input`, pretty-printed.
fn expand_codec(input: DeriveInput) -> String {
    pretty(crate::codec::derive(&input))
}

fn pretty(tokens: TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens).expect("the expansion is valid Rust");
    prettyplease::unparse(&file)
}

/// The `compile_error!` messages of an expansion, in order.
fn errors(tokens: TokenStream) -> Vec<String> {
    let file: syn::File = syn::parse2(tokens).expect("the expansion is valid Rust");
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Macro(m)
                if m.mac
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "compile_error") =>
            {
                let lit: syn::LitStr = m.mac.parse_body().expect("a string message");
                Some(lit.value())
            }
            _ => None,
        })
        .collect()
}

/// A vehicle: plain fields with declared defaults, the default crate path.
#[test]
fn snapshot_plain_struct() {
    let input: DeriveInput = syn::parse_quote! {
        struct DummyVehicle {
            #[jasset(default = 120.0)]
            max_speed: f32,
            #[jasset(default = 6)]
            gear_count: i32,
            #[jasset(default = 0xABCD_EF01_2345_6789)]
            chassis_uuid: u64,
            #[jasset(default = true)]
            turbo: bool,
            #[jasset(default = glam::Vec3::new(10.0, 20.0, 30.0))]
            spawn_point: glam::Vec3,
        }
    };
    insta::assert_snapshot!(expand_entity(input));
}

/// A weapon with a history: version, deprecated keys, migration, `migrated_from`,
/// rename, aliases.
#[test]
fn snapshot_versioned_struct_with_migration() {
    let input: DeriveInput = syn::parse_quote! {
        #[jasset(version = 3, deprecated = "Speed", deprecated = "Heat", migrate = LegacyWeapon::migrate)]
        struct LegacyWeapon {
            #[jasset(migrated_from = "Speed")]
            velocity_x: f32,
            velocity_y: f32,
            #[jasset(rename = "Ammo", alias = "AmmoCount", alias = "rounds")]
            ammo_in_clip: u16,
        }
    };
    insta::assert_snapshot!(expand_entity(input));
}

/// `name`, `crate`, `skip`, and a struct-level `default`.
#[test]
fn snapshot_renamed_class_with_skip_and_own_default() {
    let input: DeriveInput = syn::parse_quote! {
        #[jasset(name = "Rock", crate = ::juliet_core, default)]
        struct RockEntity {
            mesh_asset: String,
            tags: Vec<String>,
            #[jasset(skip)]
            cached_bounds: Option<[f32; 6]>,
        }
    };
    insta::assert_snapshot!(expand_entity(input));
}

/// A renamed class that keeps its former names (`alias` on the struct, repeatable).
#[test]
fn snapshot_class_renamed_with_aliases() {
    let input: DeriveInput = syn::parse_quote! {
        #[jasset(name = "Monster2", alias = "Monster", alias = "Beast")]
        struct Monster {
            health: i32,
        }
    };
    let text = expand_entity(input);
    assert!(text.contains(".with_aliases("), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn class_aliases_are_checked_together() {
    let input: DeriveInput = syn::parse_quote! {
        #[jasset(name = "Monster2", alias = "monster_2", alias = "Old Monster", alias = "Orc", alias = "ORC")]
        struct Monster {
            health: i32,
        }
    };
    let messages = errors(crate::entity::derive(&input));
    assert_eq!(messages.len(), 3, "{messages:#?}");
    assert!(
        messages[0].starts_with("class alias \"monster_2\" is the same class name as `Monster2`"),
        "{}",
        messages[0]
    );
    assert!(
        messages[1].starts_with("class alias \"Old Monster\" "),
        "{}",
        messages[1]
    );
    assert!(
        messages[1].contains("must be ASCII identifiers"),
        "{}",
        messages[1]
    );
    assert!(
        messages[2].starts_with("class alias \"ORC\" is the same class name as `Orc`"),
        "{}",
        messages[2]
    );
    // Without `name`, an alias may not repeat the type's own name either.
    let input: DeriveInput = syn::parse_quote! {
        #[jasset(alias = "TORCH")]
        struct Torch {
            lit: bool,
        }
    };
    let messages = errors(crate::entity::derive(&input));
    assert_eq!(messages.len(), 1, "{messages:#?}");
    assert!(
        messages[0].contains("same class name as `Torch`"),
        "{}",
        messages[0]
    );
}

#[test]
fn snapshot_unit_enum_codec() {
    let input: DeriveInput = syn::parse_quote! {
        #[jasset(crate = ::juliet_core)]
        enum Team {
            Neutral,
            #[jasset(rename = "Rouge")]
            Red,
            Blue = 7,
        }
    };
    insta::assert_snapshot!(expand_codec(input));
}

#[test]
fn every_error_is_reported_with_a_stub_impl() {
    let input: DeriveInput = syn::parse_quote! {
        #[jasset(version = 0, colour = "red")]
        struct Broken {
            #[jasset(rename = "B")]
            a: i32,
            b: i32,
            #[jasset(skip, skip)]
            c: i32,
        }
    };
    let tokens = crate::entity::derive(&input);
    let messages = errors(tokens.clone());
    assert_eq!(messages.len(), 4, "{messages:#?}");
    assert!(messages[0].starts_with("unknown jasset attribute `colour` on the struct"));
    assert!(messages[1].starts_with("duplicate jasset attribute `skip`"));
    assert!(messages[2].starts_with("`version = 0` is not allowed"));
    assert_eq!(
        messages[3],
        "key `B` of field `b` and key `B` of field `a` (renamed) are the same key \
         (keys ignore ASCII case and `_`)"
    );
    // The stub keeps the type implementing the trait, with no property table and no
    // registration.
    let text = pretty(tokens);
    assert!(text.contains("unsafe impl ::juliet_entities::juliet_core::Reflect for Broken"));
    assert!(!text.contains("PropertyDescriptor"));
    assert!(!text.contains("inventory"));
}

#[test]
fn codec_errors_are_collected() {
    let input: DeriveInput = syn::parse_quote! {
        enum Mode {
            Fast,
            #[jasset(rename = "FAST")]
            Quick,
            Slow(u8),
            #[jasset(alias = "x")]
            Still,
        }
    };
    // `Slow(u8)` makes it an enum with data, which reports the same mistakes.
    let messages = errors(crate::codec::derive(&input));
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert!(messages[0].contains("reads the same as `Fast`"));
    assert!(messages[1].starts_with("unknown jasset attribute `alias` on a variant"));
}
