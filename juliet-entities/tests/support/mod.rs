//! Test entity kinds with hand-written `Reflect` implementations (what `#[derive(Entity)]`
//! generates) and helpers, shared by the unit tests (`#[path]` include) and the integration
//! tests. Besides `juliet_core` and `glam` it names only `juliet_entities`, which the
//! library can name itself, so the file compiles in both.
//!
//! - `Crate`: no heap-typed field (the allocation-free loading test);
//! - `Sign`: `String` and `Vec<String>` fields;
//! - `Marker`: zero-sized;
//! - `Aligned`: `#[repr(align(64))]`;
//! - `Counted` and `Exploding`: count their drops (per thread), the latter panics
//!   when dropped with `value == EXPLODE`; `Counted`'s clone panics once a budget set
//!   by `panic_after_clones` is spent.
#![allow(dead_code)]

use std::cell::Cell;

use glam::Vec3;

/// Implements `Reflect` for `$ty` the way the derive does (save writes `ClassVersion` then
/// every property; load walks the file's properties with `juliet_core::Properties`,
/// then resolves the class version) and registers the class.
macro_rules! hand_entity {
    ($ty:ident, $name:literal, $ver:literal, { $($field:ident : $fty:ty = $key:literal),* $(,)? }) => {
        // SAFETY: the table is built from `$ty`'s own fields: `offset_of!` each field,
        // with the operations of its declared type.
        unsafe impl juliet_core::Reflect for $ty {
            const CLASS: &'static juliet_core::Class = {
                const PROPS: &[juliet_core::PropertyDescriptor] = &[$(
                    juliet_core::PropertyDescriptor::new::<$fty>(
                        $key,
                        stringify!($field),
                        ::core::mem::offset_of!($ty, $field),
                        &[],
                    )
                ),*];
                // SAFETY: as the impl's.
                &unsafe { juliet_core::Class::of::<$ty>($name, $ver, PROPS, &[]) }
            };

            fn default_value() -> Self {
                <$ty as Default>::default()
            }

            fn clone_value(&self) -> Self {
                self.clone()
            }

            fn save(&self, ar: &mut juliet_core::Archive<'_>) {
                if let Some(out) = ar.output() {
                    juliet_core::write_property(out, "ClassVersion", &($ver as u32));
                    $( juliet_core::write_property(out, $key, &self.$field); )*
                }
            }

            #[allow(unused_mut, unused_variables)]
            fn load(&mut self, ar: &mut juliet_core::Archive<'_>) -> Result<(), juliet_core::Error> {
                if let Some(doc) = ar.document_mut() {
                    let table = <Self as juliet_core::Reflect>::CLASS.properties();
                    let mut properties = doc.properties(table);
                    while let Some(index) = properties.next_property()? {
                        let key = table[index].key;
                        $( if key == $key {
                            properties.decode_into(&mut self.$field)?;
                            continue;
                        } )*
                    }
                }
                ar.resolve_class_version($ver)?;
                Ok(())
            }
        }

        juliet_core::inventory::submit! {
            juliet_core::ClassRegistration { class: <$ty as juliet_core::Reflect>::CLASS }
        }
    };
}

/// A kind with no heap-typed field: loading it allocates nothing once warm.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Crate {
    pub mesh_instance: u32,
    pub mass: f32,
    pub health: i32,
    pub is_visible: bool,
    pub scale: Vec3,
}

impl Default for Crate {
    fn default() -> Crate {
        Crate {
            mesh_instance: u32::MAX,
            mass: 10.0,
            health: 100,
            is_visible: true,
            scale: Vec3::ONE,
        }
    }
}

hand_entity!(Crate, "TestCrate", 2, {
    mesh_instance: u32 = "MeshInstance",
    mass: f32 = "Mass",
    health: i32 = "Health",
    is_visible: bool = "IsVisible",
    scale: Vec3 = "Scale",
});

/// A kind with heap-typed fields.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Sign {
    pub text: String,
    pub lines: Vec<String>,
    pub size: f32,
}

impl Default for Sign {
    fn default() -> Sign {
        Sign {
            text: "Welcome".to_owned(),
            lines: Vec::new(),
            size: 1.5,
        }
    }
}

hand_entity!(Sign, "TestSign", 1, {
    text: String = "Text",
    lines: Vec<String> = "Lines",
    size: f32 = "Size",
});

/// A zero-sized kind.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Marker;

hand_entity!(Marker, "TestMarker", 1, {});

/// An over-aligned kind (one cache line).
#[derive(Debug, Clone, PartialEq)]
#[repr(align(64))]
pub(crate) struct Aligned {
    pub value: u64,
    pub weight: f32,
}

impl Default for Aligned {
    fn default() -> Aligned {
        Aligned {
            value: 0xABCD,
            weight: 2.5,
        }
    }
}

hand_entity!(Aligned, "TestAligned", 1, {
    value: u64 = "Value",
    weight: f32 = "Weight",
});

thread_local! {
    static DROPS: Cell<usize> = const { Cell::new(0) };
    static CLONES_LEFT: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// Makes the clone of a [`Counted`] on this thread panic after `n` more clones
/// (`usize::MAX`: never); the panicking clone resets the budget to never.
pub(crate) fn panic_after_clones(n: usize) {
    CLONES_LEFT.with(|c| c.set(n));
}

/// Drops of [`Counted`] and [`Exploding`] values on this thread so far.
pub(crate) fn drops() -> usize {
    DROPS.with(Cell::get)
}

fn count_drop() {
    DROPS.with(|d| d.set(d.get() + 1));
}

/// A kind that counts its drops.
#[derive(Debug, PartialEq)]
pub(crate) struct Counted {
    pub value: u32,
    /// Heap memory, so that a double drop or a leak shows under Miri.
    pub payload: Box<u64>,
}

impl Default for Counted {
    fn default() -> Counted {
        Counted {
            value: 7,
            payload: Box::new(7),
        }
    }
}

impl Clone for Counted {
    fn clone(&self) -> Counted {
        let left = CLONES_LEFT.with(Cell::get);
        if left == 0 {
            panic_after_clones(usize::MAX);
            panic!("Counted clone budget spent");
        }
        if left != usize::MAX {
            CLONES_LEFT.with(|c| c.set(left - 1));
        }
        Counted {
            value: self.value,
            payload: self.payload.clone(),
        }
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        count_drop();
    }
}

hand_entity!(Counted, "TestCounted", 1, { value: u32 = "Value" });

/// [`Exploding`] values with this `value` panic when dropped.
pub(crate) const EXPLODE: u32 = 13;

/// A kind whose drop panics for `value == EXPLODE` (after counting the drop).
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Exploding {
    pub value: u32,
    pub payload: Box<u64>,
}

impl Clone for Exploding {
    fn clone(&self) -> Exploding {
        Exploding {
            value: self.value,
            payload: self.payload.clone(),
        }
    }
}

impl Drop for Exploding {
    fn drop(&mut self) {
        count_drop();
        if self.value == EXPLODE {
            panic!("Exploding entity dropped");
        }
    }
}

hand_entity!(Exploding, "TestExploding", 1, { value: u32 = "Value" });

/// A canonical entity file of [`Crate`] (what the writer emits), with `id` and a
/// position.
pub(crate) fn crate_file(id: u64, x: f32, mass: f32) -> String {
    format!(
        "; AssetType\nEntity\n; BaseVersion\n1\n; EntityID\n0x{id:016X}\n; Kind\nTestCrate\n\
         ; Position\n{x:?} 2.0 -3.5\n; ClassVersion\n2\n; MeshInstance\n4\n; Mass\n{mass:?}\n\
         ; Health\n100\n; IsVisible\ntrue\n; Scale\n1.0 1.0 1.0\n"
    )
}

/// The canonical text of entity `id` ([`juliet_entities::save_entity`]).
pub(crate) fn saved(
    m: &juliet_entities::EntityManager,
    id: juliet_entities::EntityId,
    data: &juliet_entities::EntityFileData,
) -> String {
    let mut out = String::new();
    juliet_entities::save_entity(m, id, data, &mut out).unwrap();
    out
}
