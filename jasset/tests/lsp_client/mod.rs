//! A client of `jasset lsp` for tests and benches: the binary spawned, JSON-RPC with
//! `Content-Length` framing on its stdin and stdout, requests answered in order and the
//! notifications met while waiting kept. Shared by `tests/lsp.rs` and `benches/lsp.rs`,
//! each of which uses part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};

const JASSET: &str = env!("CARGO_BIN_EXE_jasset");

/// How long one answer may take (debug builds, a shared machine, a 10 MB buffer).
pub(crate) const PATIENCE: Duration = Duration::from_secs(120);

/// The `file:` URI of a path with no character that needs escaping.
pub(crate) fn uri(path: &Path) -> String {
    let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    format!("file://{}", path.display())
}

/// A running `jasset lsp` and the messages it sent.
pub(crate) struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Json>,
    /// Notifications received while waiting for something else.
    pending: Vec<Json>,
    next_id: i64,
}

impl Server {
    /// Starts `jasset lsp` and completes the `initialize` handshake.
    pub(crate) fn start() -> Server {
        let mut child = Command::new(JASSET)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start jasset lsp");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if send.send(message).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            child,
            stdin,
            messages,
            pending: Vec::new(),
            next_id: 1,
        };
        let answer = server.request("initialize", json!({ "capabilities": {} }));
        assert!(answer["result"]["capabilities"]["hoverProvider"] == json!(true));
        server.notify("initialized", json!({}));
        server
    }

    pub(crate) fn write(&mut self, message: &Json) {
        let body = serde_json::to_vec(message).unwrap();
        write!(self.stdin, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
        self.stdin.write_all(&body).unwrap();
        self.stdin.flush().unwrap();
    }

    pub(crate) fn notify(&mut self, method: &str, params: Json) {
        self.write(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// The next message, failing the test when none comes in time.
    pub(crate) fn next(&mut self, waiting_for: &str) -> Json {
        match self.messages.recv_timeout(PATIENCE) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => panic!("no answer for {waiting_for}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server ended: {waiting_for}"),
        }
    }

    /// Sends a request and returns its whole response (`result` or `error`).
    pub(crate) fn request(&mut self, method: &str, params: Json) -> Json {
        let id = self.next_id;
        self.next_id += 1;
        self.write(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let message = self.next(method);
            if message["id"] == json!(id) {
                return message;
            }
            self.pending.push(message);
        }
    }

    /// The result of a request that must succeed.
    pub(crate) fn result(&mut self, method: &str, params: Json) -> Json {
        let answer = self.request(method, params);
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        answer["result"].clone()
    }

    /// Opens (or, when open, replaces) the buffer of `path` with `text` and returns the
    /// diagnostics the server publishes for it.
    pub(crate) fn open(&mut self, path: &Path, text: &str) -> Vec<Json> {
        let uri = uri(path);
        let document = json!({ "uri": uri, "languageId": "jasset", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": document }));
        self.diagnostics(&uri)
    }

    /// Changes the whole text of the open buffer of `path`; the diagnostics published.
    pub(crate) fn change(&mut self, path: &Path, text: &str) -> Vec<Json> {
        let uri = uri(path);
        let params = json!({
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "text": text }],
        });
        self.notify("textDocument/didChange", params);
        self.diagnostics(&uri)
    }

    /// The next diagnostics published for `uri`.
    pub(crate) fn diagnostics(&mut self, uri: &str) -> Vec<Json> {
        let is_ours = |m: &Json| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        };
        if let Some(at) = self.pending.iter().position(is_ours) {
            let m = self.pending.remove(at);
            return m["params"]["diagnostics"].as_array().unwrap().clone();
        }
        loop {
            let message = self.next("publishDiagnostics");
            if is_ours(&message) {
                return message["params"]["diagnostics"].as_array().unwrap().clone();
            }
            self.pending.push(message);
        }
    }

    /// A position request (`hover`, `completion`, `definition`) at `line`, `character`.
    pub(crate) fn at(&mut self, method: &str, path: &Path, line: u32, character: u32) -> Json {
        let params = json!({
            "textDocument": { "uri": uri(path) },
            "position": { "line": line, "character": character },
        });
        self.result(method, params)
    }

    /// Says `shutdown` and `exit`, and waits for the process to end with success.
    pub(crate) fn stop(mut self) {
        self.result("shutdown", Json::Null);
        self.notify("exit", Json::Null);
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                return;
            }
            assert!(start.elapsed() < PATIENCE, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One framed message from `reader`, `None` at the end of the stream.
fn read_message(reader: &mut impl BufRead) -> Option<Json> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}
