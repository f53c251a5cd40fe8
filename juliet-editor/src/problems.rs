//! The "Problems" panel: every error and warning of the world's files, each as
//! `path:line:col: error|warning: message`, kept up to date as files are read again;
//! and the files that did not load, which the outliner lists.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use egui::{RichText, Ui};
use juliet_core::{Error, Warning};
use juliet_entities::world::LoadReport;

use crate::app::EditorApp;
use crate::disk::normal;

/// One error or warning of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Whether it is an error (the file, or the value, did not load); else a warning.
    pub error: bool,
    /// `path:line:col: error|warning: message`, as `jasset check` prints it.
    pub text: String,
    /// The file it is about, as the loader named it.
    pub file: PathBuf,
}

impl Problem {
    fn of_error(e: &Error) -> Problem {
        Problem {
            error: true,
            text: e.to_string(),
            file: e.location.path.clone(),
        }
    }

    fn of_warning(w: &Warning) -> Problem {
        Problem {
            error: false,
            text: w.to_string(),
            file: w.location.path.clone(),
        }
    }
}

/// The problems of the world's files, by file (each path with its links resolved), and
/// the files that did not load.
#[derive(Debug, Default)]
pub struct Problems {
    by_file: BTreeMap<PathBuf, Vec<Problem>>,
    /// The files that did not load, each as given.
    not_loaded: BTreeMap<PathBuf, PathBuf>,
}

impl Problems {
    /// The problems a world's load reported; `untouched` are the files that did not load
    /// ([`juliet_entities::World::untouched_files`]).
    pub fn from_report(report: &LoadReport, untouched: &[PathBuf]) -> Problems {
        let mut problems = Problems::default();
        let errors = report
            .errors
            .iter()
            .map(|e| (&e.location.path, Problem::of_error(e)));
        let warnings = (report.warnings.iter()).map(|w| (&w.location.path, Problem::of_warning(w)));
        for (path, problem) in errors.chain(warnings) {
            problems
                .by_file
                .entry(normal(path))
                .or_default()
                .push(problem);
        }
        for path in untouched {
            problems.set_loaded(path, false);
        }
        problems
    }

    /// File `path` was read again: its problems are now `errors` and `warnings`, and it
    /// loaded or not (a file that did not load is listed in the outliner).
    pub fn file_read(&mut self, path: &Path, errors: &[Error], warnings: &[Warning], loaded: bool) {
        let found: Vec<Problem> = (errors.iter().map(Problem::of_error))
            .chain(warnings.iter().map(Problem::of_warning))
            .collect();
        let key = normal(path);
        if found.is_empty() {
            self.by_file.remove(&key);
        } else {
            self.by_file.insert(key, found);
        }
        self.set_loaded(path, loaded);
    }

    /// File `path` is gone: so are its problems.
    pub fn file_gone(&mut self, path: &Path) {
        self.by_file.remove(&normal(path));
        self.set_loaded(path, true);
    }

    fn set_loaded(&mut self, path: &Path, loaded: bool) {
        let key = normal(path);
        if loaded {
            self.not_loaded.remove(&key);
        } else {
            self.not_loaded.insert(key, path.to_path_buf());
        }
    }

    /// Every problem, by file (in path order), errors and warnings in the order found.
    pub fn iter(&self) -> impl Iterator<Item = &Problem> {
        self.by_file.values().flatten()
    }

    /// How many problems there are.
    pub fn len(&self) -> usize {
        self.by_file.values().map(Vec::len).sum()
    }

    /// Whether there is no problem.
    pub fn is_empty(&self) -> bool {
        self.by_file.is_empty()
    }

    /// The files that did not load, as their paths were given.
    pub fn not_loaded(&self) -> impl Iterator<Item = &Path> {
        self.not_loaded.values().map(PathBuf::as_path)
    }

    /// Why file `path` did not load: its first error (else its first problem).
    pub fn reason(&self, path: &Path) -> Option<&str> {
        let list = self.by_file.get(&normal(path))?;
        let first = list.iter().find(|p| p.error).or(list.first())?;
        Some(&first.text)
    }
}

impl EditorApp {
    /// The problems of the world's files.
    pub fn problems(&self) -> &Problems {
        &self.problems
    }

    /// Draws the Problems panel: one line per problem (cut at the panel's edge, whole on
    /// hover), errors in the error colour; only the lines in view are drawn. Clicking a
    /// problem of a loaded entity's file selects the entity.
    pub(crate) fn problems_ui(&mut self, ui: &mut Ui) {
        let count = self.problems.len();
        ui.heading(format!("Problems ({count})"));
        if count == 0 {
            ui.label("No problems.");
            return;
        }
        let root = format!("{}/", self.world.project_root().display());
        let mut clicked = None;
        let row_height = ui.text_style_height(&egui::TextStyle::Body);
        egui::ScrollArea::vertical()
            .id_salt("problems")
            .auto_shrink([false, true])
            .show_rows(ui, row_height, count, |ui, rows| {
                let shown = self.problems.iter().skip(rows.start).take(rows.len());
                for problem in shown {
                    let text = problem.text.strip_prefix(&root).unwrap_or(&problem.text);
                    let color = if problem.error {
                        ui.visuals().error_fg_color
                    } else {
                        ui.visuals().warn_fg_color
                    };
                    let line = egui::Label::new(RichText::new(text).color(color))
                        .truncate()
                        .sense(egui::Sense::click());
                    if ui.add(line).clicked() {
                        clicked = Some(problem.file.clone());
                    }
                }
            });
        if let Some(id) = clicked.and_then(|file| self.entity_of_file(&file)) {
            self.select(Some(id));
        }
    }
}
