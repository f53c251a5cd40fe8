//! Deltas, what an instance changes relative to its template (docs/design.md, section
//! 7.3, step 4): the [`Delta`] trait with its `()` and text implementations, the
//! [`DeltaTarget`] they apply to, and [`instantiate_from_template`], which runs a delta's
//! instantiation path. The typed delta is in `property_delta`, the batch entry point in
//! `batch`; both build on this module and nothing here depends on them.

use std::cell::RefCell;
use std::num::NonZeroU32;
use std::path::Path;

use glam::Vec3;
use juliet_core::{Class, Error, ErrorKind, Reflect, TokenBuffer, Value, ValueError};

use super::cache::TemplateRef;
use crate::entity::{Entity, EntityId};
use crate::entity_file::{keys, located};
use crate::manager::{set_at, set_by_key, EntityManager, NewRecord, SlotInit, Undo};
use crate::storage::{Erased, KindStorage, Source};

/// The label of errors in a text delta (it has no file).
const DELTA_PATH: &str = "<delta>";

thread_local! {
    /// One token buffer per thread for text deltas: steady-state instantiation reuses it.
    static DELTA_BUFFER: RefCell<TokenBuffer> = RefCell::new(TokenBuffer::new());
}

/// What an instance changes relative to its template: step 4 of docs/design.md, section 7.3
/// ("overwrite only specified properties"). Every property a delta sets becomes an
/// override of the instance.
///
/// Implemented by `()` (no change), `str` (`.jasset` text such as
/// `"Position: 1, 2, 3\nHealth: 50.0"`, parsed through the reflection table) and
/// [`PropertyDelta`](super::PropertyDelta) (typed values, copied with no parsing).
pub trait Delta {
    /// Applies the delta to a freshly copied archetype.
    ///
    /// # Errors
    /// Whatever the delta finds wrong (an unknown key, a bad value); the instance is
    /// then not created.
    fn apply(&self, target: &mut DeltaTarget<'_>) -> Result<(), Error>;

    /// Creates an instance of `request`'s template in its manager with this delta: what
    /// [`instantiate_from_template`] runs. The provided body copies the archetype
    /// through the class's type-erased clone, then calls [`Delta::apply`];
    /// [`PropertyDelta`] builds the value typed instead (clone and delta in one inlined
    /// step). Only this crate's deltas can replace it (its parameter's type cannot be
    /// named elsewhere), so every instance is made by one of these two paths.
    ///
    /// # Errors
    /// As [`instantiate_from_template`].
    #[doc(hidden)]
    fn instantiate(&self, request: sealed::Single<'_>) -> Result<EntityId, Error> {
        instantiate_erased(request, self)
    }

    /// Creates `request.count` (at least 1) instances of its template with this delta,
    /// their ids appended to `request.ids`: what [`super::instantiate_many`] runs. The
    /// provided body makes `count` single calls ([`Delta::instantiate`]), taking them
    /// all back on an error; `()` and [`PropertyDelta`] make the batch with their
    /// checks taken once. Sealed as [`Delta::instantiate`].
    ///
    /// # Errors
    /// As [`super::instantiate_many`].
    #[doc(hidden)]
    fn instantiate_many(&self, request: sealed::Batch<'_>) -> Result<(), Error> {
        instantiate_each(request, self)
    }
}

pub(super) mod sealed {
    //! The parameters of [`super::Delta`]'s two instantiation methods. The types are
    //! public but cannot be named outside this crate, so no impl elsewhere can write
    //! those methods' signatures: only this crate's deltas replace them.

    use crate::entity::EntityId;
    use crate::manager::EntityManager;
    use crate::template::TemplateRef;

    /// One instance to make: of `template`, in `manager`.
    #[derive(Debug)]
    pub struct Single<'a> {
        pub(in crate::template) manager: &'a mut EntityManager,
        pub(in crate::template) template: TemplateRef<'a>,
    }

    /// `count` (at least 1) instances to make of `one`'s template in its manager, their
    /// ids appended to `ids`.
    #[derive(Debug)]
    pub struct Batch<'a> {
        pub(in crate::template) one: Single<'a>,
        pub(in crate::template) count: usize,
        pub(in crate::template) ids: &'a mut Vec<EntityId>,
    }
}

/// Creates an instance of `template` in `manager` through docs/design.md, section 7.3's five
/// steps: (1) allocate a base record and a slot of the kind's storage, (2) copy the
/// archetype into that final slot ([`juliet_core::ClassOps::clone_in_place`], no
/// temporary) and the template's default position into the record, (3) wire the links
/// both ways (record to slot, slot to record), (4) apply `delta`, recording each
/// property it sets as an override, (5) assign a fresh id. The instance refers to the
/// template by CRC ([`Entity::template`]) and is dirty (new).
///
/// For kinds without heap-typed fields, with a `()`, text or [`PropertyDelta`](super::PropertyDelta) delta,
/// no heap allocation is made per instance once the manager has room
/// ([`EntityManager::reserve`]).
///
/// # Errors
/// The delta's error; nothing is allocated then and no id is used.
#[inline(always)]
pub fn instantiate_from_template<D: Delta + ?Sized>(
    manager: &mut EntityManager,
    template: TemplateRef<'_>,
    delta: &D,
) -> Result<EntityId, Error> {
    delta.instantiate(sealed::Single { manager, template })
}

/// No delta: the instance is the template's archetype at the template's position.
impl Delta for () {
    fn apply(&self, _: &mut DeltaTarget<'_>) -> Result<(), Error> {
        Ok(())
    }

    /// The provided path without its rollback: with nothing to apply, nothing can fail
    /// between the record's creation and its id.
    #[inline]
    fn instantiate(&self, request: sealed::Single<'_>) -> Result<EntityId, Error> {
        let sealed::Single { manager, template } = request;
        let (archetypes, slot) = template.archetype_storage();
        let init = SlotInit::Clone(archetypes, slot);
        let base = manager.push_record(template.class(), EntityId(0), init);
        let (entity, _) = manager.record_and_storage_mut(base as usize);
        entity.position = template.position();
        entity.template = NonZeroU32::new(template.crc());
        Ok(manager.register_fresh_id(base))
    }

    /// The batch through the class's clone, its checks taken once (nothing can fail).
    fn instantiate_many(&self, request: sealed::Batch<'_>) -> Result<(), Error> {
        let sealed::Batch { one, count, ids } = request;
        let template = one.template;
        let record = NewRecord {
            position: template.position(),
            template: NonZeroU32::new(template.crc()),
            ..NewRecord::default()
        };
        let (archetypes, slot) = template.archetype_storage();
        let source = Source::<Erased>::Slot(archetypes, slot);
        one.manager
            .spawn_clones(template.class(), &record, source, count, ids, |a, base| {
                a.fill(base)
            })
            .expect("a template's archetype is of its kind");
        Ok(())
    }
}

/// A delta in `.jasset` text: `Position` and the class's properties, in any line form
/// (`Key: value` lines, `; Key` blocks). Uses a per-thread token buffer, so it
/// allocates nothing per instance once warm (for properties without heap types).
///
/// # Errors
/// A tokenizer error, [`ErrorKind::BadValue`], or [`ErrorKind::NoSuchProperty`] for any
/// other key (including `Kind` and `Template`), located in the text (path `<delta>`).
impl Delta for str {
    fn apply(&self, target: &mut DeltaTarget<'_>) -> Result<(), Error> {
        DELTA_BUFFER.with(|buffer| match buffer.try_borrow_mut() {
            Ok(mut buffer) => apply_text(&mut buffer, self, target),
            Err(_) => apply_text(&mut TokenBuffer::new(), self, target),
        })
    }
}

fn apply_text(
    buffer: &mut TokenBuffer,
    text: &str,
    target: &mut DeltaTarget<'_>,
) -> Result<(), Error> {
    let mut doc = buffer.tokenize(text.as_bytes(), Path::new(DELTA_PATH))?;
    for i in 0..doc.len() {
        let crc = doc.node(i).key_crc;
        if keys::POSITION.matches(crc, doc.key(i)) {
            let position: Vec3 = doc.decode(i)?;
            target.set_position(position);
            continue;
        }
        let Some(index) = target.class().property_index(crc, doc.key(i)) else {
            let kind = ErrorKind::NoSuchProperty {
                class: target.class().name(),
                key: doc.key(i).to_owned(),
            };
            return Err(located(&doc, i, kind));
        };
        if let Err(e) = target.set_property_at(index, doc.value(i)) {
            let expected = target.storage.properties()[index].property_type.to_string();
            return Err(doc.value_error(i, &expected, e));
        }
    }
    Ok(())
}

/// The instance a [`Delta`] applies to: its base record and derived struct, with the
/// reflection setters that record overrides.
#[derive(Debug)]
pub struct DeltaTarget<'a> {
    pub(super) entity: &'a mut Entity,
    pub(super) storage: &'a mut KindStorage,
}

impl DeltaTarget<'_> {
    /// The instance's kind.
    pub fn class(&self) -> &'static Class {
        self.entity.class
    }

    /// The instance's position (the template's until a delta sets it).
    pub fn position(&self) -> Vec3 {
        self.entity.position
    }

    /// Sets the position, as an override of the template's.
    pub fn set_position(&mut self, position: Vec3) {
        self.entity.position = position;
        self.entity.position_overridden = true;
    }

    /// Decodes `value` into property `key` (any spelling; `Position` sets the position)
    /// and records it as overridden.
    ///
    /// # Errors
    /// [`ErrorKind::NoSuchProperty`], or [`ErrorKind::BadValue`] naming the key (with no
    /// file location: the value did not come from a file).
    pub fn set_property(&mut self, key: &str, value: Value<'_>) -> Result<(), Error> {
        set_by_key(self.entity, self.storage, key, value)
    }

    /// Decodes `value` into property `index` of the class's table and records it as
    /// overridden. Panics when `index` is out of bounds.
    ///
    /// # Errors
    /// The codec's [`ValueError`]; the property is unchanged then.
    pub fn set_property_at<'v>(
        &mut self,
        index: usize,
        value: Value<'v>,
    ) -> Result<(), ValueError<'v>> {
        set_at(self.entity, self.storage, index, value)
    }

    /// The derived struct as a `T` (`None` for another kind). Changes made through it
    /// are not recorded as overrides: call [`DeltaTarget::mark_overridden`].
    pub fn value_mut<T: Reflect>(&mut self) -> Option<&mut T> {
        self.storage.get_mut::<T>(self.entity.slot as usize)
    }

    /// Records property `index` of the class's table as overridden. Panics when out of
    /// bounds.
    pub fn mark_overridden(&mut self, index: usize) {
        assert!(
            index < self.storage.properties().len(),
            "no property {index}"
        );
        self.entity.overrides.insert(index);
    }
}

/// [`instantiate_from_template`] through the class's type-erased clone and
/// [`Delta::apply`] (every delta but [`PropertyDelta`]).
fn instantiate_erased<D: Delta + ?Sized>(
    request: sealed::Single<'_>,
    delta: &D,
) -> Result<EntityId, Error> {
    let sealed::Single { manager, template } = request;
    let (archetypes, slot) = template.archetype_storage();
    // Steps 1-3: the record, the archetype cloned into the final slot, both links.
    let base = manager.push_record(
        template.class(),
        EntityId(0),
        SlotInit::Clone(archetypes, slot),
    );
    // Takes back the unregistered record if the delta fails or panics.
    let mut guard = Undo::new(manager, move |m| m.discard_last(base));
    let (entity, storage) = guard.manager.record_and_storage_mut(base as usize);
    entity.position = template.position();
    entity.template = NonZeroU32::new(template.crc());
    // Step 4: the delta.
    delta.apply(&mut DeltaTarget { entity, storage })?;
    // Step 5: the id.
    let id = guard.manager.register_fresh_id(base);
    guard.disarm();
    Ok(id)
}

/// [`instantiate_many`] by `count` single calls (the provided
/// [`Delta::instantiate_many`]); a failing call takes back the instances made before it
/// (destroyed last first, so the records and slots are popped) and the id counter.
fn instantiate_each<D: Delta + ?Sized>(request: sealed::Batch<'_>, delta: &D) -> Result<(), Error> {
    let sealed::Batch { one, count, ids } = request;
    let sealed::Single { manager, template } = one;
    let (start, counter) = (ids.len(), manager.id_counter());
    for _ in 0..count {
        let single = sealed::Single {
            manager: &mut *manager,
            template,
        };
        match delta.instantiate(single) {
            Ok(id) => ids.push(id),
            Err(e) => {
                for id in ids.drain(start..).rev() {
                    manager.destroy_entity(id).expect("an instance just made");
                }
                manager.restore_id_counter(counter);
                return Err(e);
            }
        }
    }
    Ok(())
}
