//! [`TemplateCache::reload`]: re-reading a changed template and rebuilding the
//! archetypes of its variants, reporting each change so that instances can follow
//! (docs/design.md, section 7.6: every instance takes the new value of each property it does not
//! override).

use std::path::Path;

use juliet_core::Error;

use super::{read_into, template_error, Parsed, TemplateCache, TemplateChange};
use crate::entity::OverrideSet;

impl TemplateCache {
    /// Re-reads the template at project-relative `path` and replaces its archetype.
    /// Each variant (a template naming it as `Template`, at any depth) takes the new
    /// value of every property its own file does not set, and the default position
    /// when its file gives none. For each template whose archetype changed, parents
    /// first, `on_change` receives the old and new archetypes and the changed
    /// properties (the world uses it to update instances). Returns the CRCs of those
    /// templates. A template not yet cached is just loaded (nothing to report).
    ///
    /// # Errors
    /// As [`TemplateCache::get_or_load`], and [`juliet_core::ErrorKind::Template`] when the file now
    /// names another kind, or a parent chain leading back to itself. On error the cache
    /// keeps the previous version of every template.
    pub fn reload(
        &mut self,
        path: &str,
        mut on_change: impl FnMut(&TemplateChange<'_>),
    ) -> Result<Vec<u32>, Error> {
        let (normalized, crc) = self.key_of(path, None, Path::new(path))?;
        let Some(&index) = self.by_crc.get(&crc) else {
            self.get_or_load(path)?;
            return Ok(Vec::new());
        };
        let scratch = std::mem::take(self.scratch.get_mut());
        let result = self.replace(&scratch, index, normalized.into_owned(), crc);
        *self.scratch.get_mut() = scratch;
        self.scratch.get_mut().reset();
        let old = result?;
        Ok(self.cascade(index, old, &mut on_change))
    }

    /// Parses the file of entry `index` again and swaps the new archetype in; returns
    /// the old slot and position.
    fn replace(
        &mut self,
        scratch: &bumpalo::Bump,
        index: u32,
        normalized: String,
        crc: u32,
    ) -> Result<(u32, glam::Vec3), Error> {
        let full = self.root.join(&normalized);
        self.files_read += 1;
        let bytes = read_into(
            scratch,
            &self.root,
            &full,
            self.max_file_size,
            &mut self.near_names,
        )
        .map_err(|reason| template_error(None, &full, &normalized, reason))?;
        let mut chain = vec![normalized.clone()];
        let Parsed(fresh) = self.parse(
            scratch,
            normalized,
            crc,
            Some(index),
            &full,
            bytes,
            &mut chain,
        )?;
        let old = &self.entries[index as usize];
        let mut problem = None;
        if *fresh.class != *old.class {
            problem = Some(format!(
                "its kind changed from `{}` to `{}`; instances cannot follow (load the world again)",
                old.class.name(), fresh.class.name()
            ));
        }
        let mut names = vec![fresh.path.as_str()];
        let mut parent = fresh.parent;
        while let (None, Some(p)) = (&problem, parent) {
            let entry = &self.entries[self.by_crc[&p] as usize];
            names.push(&entry.path);
            if p == crc {
                problem = Some(format!("templates form a cycle: {}", names.join(" -> ")));
            }
            parent = entry.parent;
        }
        if let Some(reason) = problem {
            // The fresh archetype is the last slot of its storage: nothing was pushed
            // after it.
            self.kinds[fresh.kind as usize].swap_remove(fresh.slot as usize);
            return Err(template_error(None, &full, &fresh.path, reason));
        }
        self.new_warnings.extend(fresh.warnings.iter().cloned());
        let entry = &mut self.entries[index as usize];
        let old = (entry.slot, entry.position);
        *entry = fresh;
        Ok(old)
    }

    /// Reports the change of entry `index` and rebuilds its variants, then frees the
    /// old archetypes. Returns the CRCs of the templates that changed.
    fn cascade(
        &mut self,
        index: u32,
        (old_slot, old_position): (u32, glam::Vec3),
        on_change: &mut impl FnMut(&TemplateChange<'_>),
    ) -> Vec<u32> {
        let mut work = vec![(index as usize, old_slot as usize, old_position)];
        let mut retired = Vec::new();
        let mut changed_templates = Vec::new();
        while let Some((t, old_slot, old_position)) = work.pop() {
            let entry = &self.entries[t];
            let (kind, new_slot, crc) = (entry.kind as usize, entry.slot as usize, entry.crc);
            let new_position = entry.position;
            retired.push((kind, old_slot));
            let storage = &self.kinds[kind];
            let changed: OverrideSet = (0..storage.properties().len())
                .filter(|&i| !storage.same_property(old_slot, i, storage, new_slot))
                .collect();
            if changed.is_empty() && new_position == old_position {
                continue;
            }
            changed_templates.push(crc);
            on_change(&TemplateChange {
                crc,
                class: entry.class,
                archetypes: storage,
                old_slot,
                new_slot,
                changed: &changed,
                old_position,
                new_position,
            });
            let variants: Vec<usize> = (0..self.entries.len())
                .filter(|&c| self.entries[c].parent == Some(crc))
                .collect();
            for c in variants {
                let variant = &mut self.entries[c];
                let (c_old, c_position) = (variant.slot, variant.position);
                let storage = &mut self.kinds[kind];
                let c_new = storage.push_clone_of(c as u32, c_old as usize);
                for i in changed.iter() {
                    if !variant.sets.contains(i) {
                        storage.copy_property_within(c_new as usize, i, new_slot);
                    }
                }
                if !variant.position_set {
                    variant.position = new_position;
                }
                variant.slot = c_new;
                work.push((c, c_old as usize, c_position));
            }
        }
        // Highest slots first: a swap-and-pop then only ever moves a live archetype.
        retired.sort_unstable_by(|a, b| b.cmp(a));
        for (kind, slot) in retired {
            if let Some(moved) = self.kinds[kind].swap_remove(slot) {
                self.entries[moved as usize].slot = slot as u32;
            }
        }
        changed_templates
    }
}
