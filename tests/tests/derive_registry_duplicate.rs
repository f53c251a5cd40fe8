//! Two derived classes whose names are the same key: the registry refuses to start,
//! naming both Rust types (docs/design.md, section 3.5).

use juliet_core::{ErrorKind, Reflect, Registry};
use juliet_entities::Entity;

mod first {
    use super::Entity;

    #[derive(Entity)]
    #[jasset(name = "Barrel")]
    pub(crate) struct Barrel {
        pub volume: f32,
    }
}

mod second {
    use super::Entity;

    /// Named `barrel`: the same class name once ASCII case is ignored.
    #[derive(Entity)]
    #[jasset(name = "barrel")]
    pub(crate) struct Barrel {
        pub explosive: bool,
    }
}

#[test]
fn duplicate_class_names_fail_registry_start_up_naming_both_types() {
    let err = Registry::global().unwrap_err();
    let ErrorKind::DuplicateClass { first, second, crc } = err.kind.clone() else {
        panic!("expected DuplicateClass, got {err}");
    };
    assert_eq!(crc, first::Barrel::CLASS.crc());
    assert_eq!(crc, second::Barrel::CLASS.crc());
    let mut names = [first, second];
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "derive_registry_duplicate::first::Barrel",
            "derive_registry_duplicate::second::Barrel"
        ]
    );
    let message = err.to_string();
    assert!(
        message.contains("first::Barrel") && message.contains("second::Barrel"),
        "{message}"
    );
    // The same error on every call.
    assert_eq!(Registry::global().unwrap_err().kind, err.kind);
}

#[test]
fn a_world_of_such_a_program_does_not_load_and_says_why() {
    let root = tempfile::tempdir().unwrap();
    let entities = root.path().join("Entities");
    std::fs::create_dir_all(&entities).unwrap();
    std::fs::write(
        entities.join("rock.jasset"),
        "; EntityID\n0x0000000000000001\n; Kind\nInert\n",
    )
    .unwrap();
    let err = juliet_entities::World::load(root.path(), &Default::default()).unwrap_err();
    let juliet_entities::WorldLoadError::Registry(err) = err else {
        panic!("expected a registry error, got {err}");
    };
    assert!(
        matches!(err.kind, ErrorKind::DuplicateClass { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("second::Barrel"), "{err}");
}
