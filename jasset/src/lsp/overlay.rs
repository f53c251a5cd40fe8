//! The editor's unsaved buffers as templates: a buffer is checked against the templates
//! of its chain as the editor holds them, the open ones from their buffers, the others
//! from their files, so that a change typed into a template shows at once in the open
//! instances of it.

use std::path::{Path, PathBuf};

use juliet_core::Registry;

use super::super::project::templates_for;
use super::documents::{entries, template_of, Document, Documents};
use juliet_entities::fsio::{read_project_file, DEFAULT_MAX_FILE_SIZE};
use juliet_entities::template::{normalize_template_path, TemplateCache};

/// How many templates a chain is followed through (the loader names a cycle; this only
/// bounds the walk).
const MAX_DEPTH: usize = 64;

/// One template of a buffer's chain.
struct Link {
    /// Its `Template` path, normalized.
    rel: String,
    /// Its file.
    file: PathBuf,
    /// Its text when the editor has it open.
    buffer: Option<String>,
}

/// The templates of `doc`'s chain, nearest first, each read from its open buffer when
/// there is one. The walk stops at a template that cannot be read, a path the runtime
/// refuses, or one met before (the loader reports each).
fn chain(doc: &Document, open: &Documents) -> Vec<Link> {
    let Some(root) = doc.root.as_deref() else {
        return Vec::new();
    };
    let mut out: Vec<Link> = Vec::new();
    let mut next = template_of(&entries(&doc.text), &doc.text);
    while let Some(template) = next.take() {
        let Ok(rel) = normalize_template_path(&template) else {
            break;
        };
        if out.len() >= MAX_DEPTH || out.iter().any(|l| l.rel == rel) {
            break;
        }
        let file = root.join(&rel);
        let buffer = open.at_path(&file).map(|d| d.text.clone());
        let text = match &buffer {
            Some(text) => text.clone(),
            None => match read_project_file(&file, Some(root), DEFAULT_MAX_FILE_SIZE) {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(_) => break,
            },
        };
        next = template_of(&entries(&text), &text);
        out.push(Link { rel, file, buffer });
    }
    out
}

/// A template cache for `doc` holding the open buffers of its chain as their templates
/// (farthest first, so that each finds its parent's buffer cached). A buffer that does
/// not load as a template is left out: its file is read instead, and its own
/// diagnostics name its problems.
pub(super) fn templates(
    doc: &Document,
    open: &Documents,
    registry: &'static Registry,
) -> TemplateCache {
    let mut cache = templates_for(doc.root.as_deref(), &doc.path, registry);
    for link in chain(doc, open).iter().rev() {
        if let Some(text) = &link.buffer {
            let _ = cache.insert_text(&link.rel, text);
        }
    }
    cache
}

/// Whether the template chain of `doc` goes through the file at `path`.
pub(super) fn depends_on(doc: &Document, open: &Documents, path: &Path) -> bool {
    let real = std::fs::canonicalize(path).ok();
    chain(doc, open)
        .iter()
        .any(|l| l.file == path || real.is_some() && std::fs::canonicalize(&l.file).ok() == real)
}
