//! What a template buffer does to the files that are not open: the project's `.jasset`
//! files whose template chain goes through it are checked against the buffer (as
//! `check` would check them were it saved), and their problems published under their
//! own URIs, so an instance whose override no longer fits shows while the template is
//! typed. The project's files are listed once per project root, and again when a buffer
//! opens or closes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types::Uri;

use super::super::listing::collect;
use super::diagnostics::{problems, Problem};
use super::documents::{entries, template_of, uri_of, Document, Documents};
use super::overlay::depends_on;
use crate::fsio::{read_project_file, DEFAULT_MAX_FILE_SIZE};
use crate::template::normalize_template_path;

/// The files of each project that name a template (`Template` line), by project root:
/// the candidates for a template's instances and variants, listed once.
#[derive(Debug, Default)]
pub struct Instances {
    listed: HashMap<PathBuf, Vec<PathBuf>>,
}

impl Instances {
    /// Forgets the listings: the next template change lists the files again (a buffer
    /// opened or closed, which may be a file saved under a new name).
    pub fn forget(&mut self) {
        self.listed.clear();
    }

    /// The files of `root`'s project (under `Assets/`) that have a `Template` line.
    fn of(&mut self, root: &Path) -> &[PathBuf] {
        self.listed.entry(root.to_path_buf()).or_insert_with(|| {
            let found = collect(&[root.join("Assets")]);
            (found.files.into_iter())
                .filter(|file| text_of(file, root).is_some_and(|t| names_template(&t)))
                .collect()
        })
    }
}

/// The text of the project file `file` (under `root`), read as every project file is.
fn text_of(file: &Path, root: &Path) -> Option<String> {
    let bytes = read_project_file(file, Some(root), DEFAULT_MAX_FILE_SIZE).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Whether `text` names a template.
fn names_template(text: &str) -> bool {
    template_of(&entries(text), text).is_some_and(|t| normalize_template_path(&t).is_ok())
}

/// The problems of each file of the project of `template` (an open buffer) that is not
/// open and whose template chain goes through it, checked with the open buffers as
/// they are: its URI and problems (empty once it has none, so that earlier ones clear).
pub fn closed_instances(
    template: &Document,
    open: &Documents,
    listed: &mut Instances,
) -> Vec<(Uri, Vec<Problem>)> {
    let Some(root) = template.root.clone() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for file in listed.of(&root).to_vec() {
        if file == template.path || open.at_path(&file).is_some() {
            continue;
        }
        let Some(text) = text_of(&file, &root) else {
            continue;
        };
        let doc = Document {
            path: file.clone(),
            text,
            root: Some(root.clone()),
        };
        if !depends_on(&doc, open, &template.path) {
            continue;
        }
        if let Some(uri) = uri_of(&file) {
            out.push((uri, problems(&doc, open)));
        }
    }
    out
}
