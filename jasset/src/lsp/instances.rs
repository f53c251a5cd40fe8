//! What a template buffer does to the files that are not open: the project's `.jasset`
//! files whose template chain goes through it are checked against the buffer (as
//! `check` would check them were it saved), and their problems published under their
//! own URIs, so an instance whose override no longer fits shows while the template is
//! typed. The project's files that name a template are listed (with their texts) once
//! per project root, and again when a buffer opens or closes; which of them go through
//! the template is worked out from that listing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types::Uri;

use super::super::listing::collect;
use super::diagnostics::{problems, Problem};
use super::documents::{entries, template_of, uri_of, Document, Documents};
use juliet_entities::fsio::{read_project_file, DEFAULT_MAX_FILE_SIZE};
use juliet_entities::template::normalize_template_path;

/// A file of a project that names a template: its path, its `Template` path
/// (normalized) and its text as listed.
#[derive(Debug)]
struct Named {
    file: PathBuf,
    template: String,
    text: String,
}

/// The files of each project that name a template (`Template` line), by project root:
/// the candidates for a template's instances and variants, listed once.
#[derive(Debug, Default)]
pub(super) struct Instances {
    listed: HashMap<PathBuf, Vec<Named>>,
}

impl Instances {
    /// Forgets the listings: the next template change lists the files again (a buffer
    /// opened or closed, which may be a file saved under a new name).
    pub(super) fn forget(&mut self) {
        self.listed.clear();
    }

    /// The files of `root`'s project (under `Assets/`) that have a `Template` line.
    fn of(&mut self, root: &Path) -> &[Named] {
        self.listed.entry(root.to_path_buf()).or_insert_with(|| {
            let found = collect(&[root.join("Assets")]);
            (found.files.into_iter())
                .filter_map(|file| {
                    let text = text_of(&file, root)?;
                    let template = template_of(&entries(&text), &text)?;
                    let template = normalize_template_path(&template).ok()?;
                    Some(Named {
                        file,
                        template,
                        text,
                    })
                })
                .collect()
        })
    }
}

/// The text of the project file `file` (under `root`), read as every project file is.
fn text_of(file: &Path, root: &Path) -> Option<String> {
    let bytes = read_project_file(file, Some(root), DEFAULT_MAX_FILE_SIZE).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The files of `listed` whose template chain goes through the template `rel` (a
/// `Template` path, normalized): those that name it, and those that name a template
/// that does, and so on.
fn through<'l>(listed: &'l [Named], root: &Path, rel: &str) -> Vec<&'l Named> {
    let mut templates = vec![rel.to_owned()];
    let mut out: Vec<&Named> = Vec::new();
    while let Some(template) = templates.pop() {
        for named in listed.iter().filter(|n| n.template == template) {
            if out.iter().any(|o| o.file == named.file) {
                continue;
            }
            out.push(named);
            // A template that names it: the files that name that one go through it too.
            if let Some(rel) = (named.file.strip_prefix(root).ok())
                .and_then(|r| normalize_template_path(&r.to_string_lossy()).ok())
            {
                templates.push(rel);
            }
        }
    }
    out
}

/// The problems of each file of the project of `template` (an open buffer) that is not
/// open and whose template chain goes through it, checked with the open buffers as
/// they are: its URI and problems (empty once it has none, so that earlier ones clear).
pub(super) fn closed_instances(
    template: &Document,
    open: &Documents,
    listed: &mut Instances,
) -> Vec<(Uri, Vec<Problem>)> {
    let Some(root) = template.root.clone() else {
        return Vec::new();
    };
    let Some(rel) = (template.path.strip_prefix(&root).ok())
        .and_then(|r| normalize_template_path(&r.to_string_lossy()).ok())
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for named in through(listed.of(&root), &root, &rel) {
        if open.at_path(&named.file).is_some() {
            continue;
        }
        let doc = Document {
            path: named.file.clone(),
            text: named.text.clone(),
            root: Some(root.clone()),
        };
        if let Some(uri) = uri_of(&named.file) {
            out.push((uri, problems(&doc, open)));
        }
    }
    out
}
