//! The server loop: the `initialize` handshake, then one message at a time from the
//! editor (`lsp-server` reads and writes the framed JSON-RPC on stdin and stdout):
//! buffers opened, changed (full text) and closed, each change answered with the
//! buffer's diagnostics, and every request answered, with an error response when its
//! parameters do not parse or a handler fails, so that no buffer can stop the server.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, Formatting, GotoDefinition, HoverRequest, Request as _,
};
use lsp_types::{
    CodeActionParams, CodeActionProviderCapability, CompletionOptions, CompletionParams,
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DocumentFormattingParams, GotoDefinitionParams, GotoDefinitionResponse, HoverParams,
    HoverProviderCapability, OneOf, Position, PublishDiagnosticsParams, ServerCapabilities,
    TextDocumentPositionParams, TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use serde_json::Value as Json;

use super::super::project::{find_root, TEMPLATES_DIR};
use super::actions::{actions, format_edits};
use super::completion::complete;
use super::diagnostics::{problems, Problem};
use super::documents::{path_of, Document, Documents};
use super::hover::{definition, hover};
use super::instances::{closed_instances, Instances};
use super::overlay::depends_on;

/// What the server keeps between messages.
struct State {
    documents: Documents,
    /// The problems last published for each open buffer (the code actions' fixes).
    problems: HashMap<Uri, Vec<Problem>>,
    /// The files of each project that name a template (a template's closed instances).
    instances: Instances,
}

/// What the server tells the editor it does.
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![":".to_owned(), " ".to_owned()]),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

/// Serves the editor on stdin and stdout until it says `exit` (or closes stdin).
/// `root` is the project root of every file when given.
///
/// # Errors
/// A broken connection (a message that is not JSON-RPC, a closed pipe).
pub(super) fn serve(root: Option<PathBuf>) -> Result<(), String> {
    let (connection, io_threads) = Connection::stdio();
    let caps = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    connection.initialize(caps).map_err(|e| e.to_string())?;
    let mut state = State {
        documents: Documents::new(root),
        problems: HashMap::new(),
        instances: Instances::default(),
    };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection
                    .handle_shutdown(&request)
                    .map_err(|e| e.to_string())?
                {
                    break;
                }
                let response = respond(&state, request);
                send(&connection, Message::Response(response))?;
            }
            Message::Notification(note) => {
                for published in notified(&mut state, note) {
                    send(&connection, Message::Notification(published))?;
                }
            }
            Message::Response(_) => {}
        }
    }
    drop(connection);
    io_threads.join().map_err(|e| e.to_string())
}

fn send(connection: &Connection, message: Message) -> Result<(), String> {
    connection.sender.send(message).map_err(|e| e.to_string())
}

/// Runs `f`, turning a panic into `None` (a bug of a handler must not end the server
/// and lose the editor's other requests).
fn guarded<T>(f: impl FnOnce() -> T) -> Option<T> {
    catch_unwind(AssertUnwindSafe(f)).ok()
}

/// Applies a notification; the diagnostics to publish when a buffer opened or changed:
/// its own, and those of the other open buffers whose template chain goes through it.
fn notified(state: &mut State, note: Notification) -> Vec<Notification> {
    let opened_or_closed = note.method != DidChangeTextDocument::METHOD;
    let Some(uri) = applied(state, note) else {
        return Vec::new();
    };
    if opened_or_closed {
        state.instances.forget();
    }
    let mut out = elsewhere(state, &uri);
    let Some(changed) = state.documents.get(&uri) else {
        state.problems.remove(&uri);
        out.push(publish(uri, Vec::new()));
        return out;
    };
    let path = changed.path.clone();
    let docs = &state.documents;
    let mut affected = vec![uri.clone()];
    affected.extend(
        docs.iter()
            .filter(|(other, doc)| {
                **other != uri && guarded(|| depends_on(doc, docs, &path)).unwrap_or(false)
            })
            .map(|(other, _)| other.clone()),
    );
    for uri in affected {
        let Some(doc) = state.documents.get(&uri) else {
            continue;
        };
        let found = guarded(|| problems(doc, &state.documents)).unwrap_or_default();
        let diagnostics = found.iter().map(|p| p.diagnostic.clone()).collect();
        state.problems.insert(uri.clone(), found);
        out.push(publish(uri, diagnostics));
    }
    out
}

/// When the buffer of `uri` (open, or just closed) is a template (under
/// `Assets/Templates`): the diagnostics of the project's files that are not open and go
/// through it, checked with the buffers as they are now.
fn elsewhere(state: &mut State, uri: &Uri) -> Vec<Notification> {
    let template = match state.documents.get(uri) {
        Some(doc) => doc.clone(),
        None => {
            let Some(path) = path_of(uri) else {
                return Vec::new();
            };
            let root = path.parent().and_then(find_root);
            Document {
                path,
                text: String::new(),
                root,
            }
        }
    };
    let Some(root) = template.root.as_deref() else {
        return Vec::new();
    };
    if !template.path.starts_with(root.join(TEMPLATES_DIR)) {
        return Vec::new();
    }
    let (docs, listed) = (&state.documents, &mut state.instances);
    let found = guarded(|| closed_instances(&template, docs, listed)).unwrap_or_default();
    (found.into_iter())
        .map(|(uri, problems)| publish(uri, problems.into_iter().map(|p| p.diagnostic).collect()))
        .collect()
}

/// Applies an open, change or close notification to the buffers; the buffer's URI.
fn applied(state: &mut State, note: Notification) -> Option<Uri> {
    match note.method.as_str() {
        DidOpenTextDocument::METHOD => {
            let p: DidOpenTextDocumentParams = note.extract(DidOpenTextDocument::METHOD).ok()?;
            state
                .documents
                .set(&p.text_document.uri, p.text_document.text)?;
            Some(p.text_document.uri)
        }
        DidChangeTextDocument::METHOD => {
            let p: DidChangeTextDocumentParams =
                note.extract(DidChangeTextDocument::METHOD).ok()?;
            let text = p.content_changes.into_iter().last()?.text;
            state.documents.set(&p.text_document.uri, text)?;
            Some(p.text_document.uri)
        }
        DidCloseTextDocument::METHOD => {
            let p: DidCloseTextDocumentParams = note.extract(DidCloseTextDocument::METHOD).ok()?;
            state.documents.close(&p.text_document.uri);
            Some(p.text_document.uri)
        }
        _ => None,
    }
}

fn publish(uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>) -> Notification {
    let params = PublishDiagnosticsParams::new(uri, diagnostics, None);
    Notification::new(PublishDiagnostics::METHOD.to_owned(), params)
}

/// The answer to `request`: its result, `null` when there is nothing to say, or an
/// error response.
fn respond(state: &State, request: Request) -> Response {
    let id = request.id.clone();
    match guarded(|| dispatch(state, request)) {
        Some(Ok(result)) => Response::new_ok(id, result),
        Some(Err((code, message))) => Response::new_err(id, code as i32, message),
        None => Response::new_err(
            id,
            ErrorCode::InternalError as i32,
            "the request failed".to_owned(),
        ),
    }
}

/// Why a request has no result: the error code and message of its error response.
type Failure = (ErrorCode, String);

/// The parameters of `request` as `P`, or the error response saying they do not parse.
fn params<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, Failure> {
    serde_json::from_value(request.params).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
}

fn to_json(value: impl serde::Serialize) -> Json {
    serde_json::to_value(value).unwrap_or(Json::Null)
}

/// What `answer` says of the place `at` in its open document; `None` when the document
/// is not open.
fn at_position<T>(
    docs: &Documents,
    at: TextDocumentPositionParams,
    answer: impl FnOnce(&Document, Position) -> T,
) -> Option<T> {
    docs.get(&at.text_document.uri)
        .map(|d| answer(d, at.position))
}

/// Runs the handler of `request`.
fn dispatch(state: &State, request: Request) -> Result<Json, Failure> {
    let docs = &state.documents;
    Ok(match request.method.as_str() {
        HoverRequest::METHOD => {
            let p: HoverParams = params(request)?;
            to_json(at_position(docs, p.text_document_position_params, hover).flatten())
        }
        Completion::METHOD => {
            let p: CompletionParams = params(request)?;
            to_json(at_position(docs, p.text_document_position, complete).unwrap_or_default())
        }
        GotoDefinition::METHOD => {
            let p: GotoDefinitionParams = params(request)?;
            let found = at_position(docs, p.text_document_position_params, definition);
            to_json(found.flatten().map(GotoDefinitionResponse::Scalar))
        }
        CodeActionRequest::METHOD => {
            let p: CodeActionParams = params(request)?;
            let uri = p.text_document.uri;
            let none = Vec::new();
            let problems = state.problems.get(&uri).unwrap_or(&none);
            let found = docs
                .get(&uri)
                .map(|d| actions(&uri, d, docs, p.range, problems));
            to_json(found.unwrap_or_default())
        }
        Formatting::METHOD => {
            let p: DocumentFormattingParams = params(request)?;
            let found = docs.get(&p.text_document.uri);
            to_json(found.and_then(|d| format_edits(d, docs)))
        }
        _ => {
            return Err((
                ErrorCode::MethodNotFound,
                format!("unknown method {}", request.method),
            ))
        }
    })
}
