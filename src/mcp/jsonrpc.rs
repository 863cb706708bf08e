//! JSON-RPC 2.0 to the letter, in front of `rmcp`'s line transport.
//!
//! `rmcp` drops lines it cannot parse (no answer to malformed JSON or
//! invalid UTF-8), answers some invalid requests without an `id` member,
//! and answers bad `tools/call` params with -32601. This layer reads the
//! client's lines itself: a good message goes on to `rmcp` through a pipe,
//! a bad one is answered here with the code JSON-RPC and MCP name:
//!
//! - -32700 (`id: null`): not JSON, or not UTF-8;
//! - -32600: not a request, notification or response (`id: null` unless
//!   the message has a usable id);
//! - -32602: `tools/call` without a tool name, with arguments that are not
//!   an object, or naming no tool this server has (MCP's "Unknown tool").
//!
//! Every error reply carries `id` (`null` when unknown), including any
//! `rmcp` sends without one.

use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

/// A message longer than this is refused unread (-32600).
pub const MAX_LINE: usize = 16 << 20;
/// The pipes' buffers between this layer and `rmcp`.
const PIPE: usize = 1 << 16;

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const INVALID_PARAMS: i64 = -32602;

/// What to do with one line from the client.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// A well-formed message: `rmcp` handles it.
    Pass,
    /// Nothing to do (a blank line).
    Skip,
    /// Answer this error reply here.
    Answer(Value),
}

/// The error reply for `id` (`Value::Null` when unknown).
pub fn error(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

fn usable_id(v: &Value) -> bool {
    matches!(v, Value::String(_)) || v.as_i64().is_some() || v.as_u64().is_some()
}

/// Judges one line (without its newline); `known` says whether a tool of
/// that name exists.
pub fn check(line: &[u8], known: &dyn Fn(&str) -> bool) -> Verdict {
    let Ok(text) = std::str::from_utf8(line) else {
        return Verdict::Answer(error(Value::Null, PARSE_ERROR, "Parse error: the message is not UTF-8"));
    };
    if text.trim().is_empty() {
        return Verdict::Skip;
    }
    let v: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(_) => return Verdict::Answer(error(Value::Null, PARSE_ERROR, "Parse error: the message is not JSON")),
    };
    let Value::Object(m) = v else {
        let what = if v.is_array() {
            "Invalid request: batches are not supported; send one message per line"
        } else {
            "Invalid request: a message is a JSON object"
        };
        return Verdict::Answer(error(Value::Null, INVALID_REQUEST, what));
    };
    let id = match m.get("id") {
        None => None,
        Some(i) if usable_id(i) => Some(i.clone()),
        Some(_) => {
            return Verdict::Answer(error(
                Value::Null,
                INVALID_REQUEST,
                "Invalid request: `id` must be a string or an integer",
            ));
        }
    };
    let reply_id = id.clone().unwrap_or(Value::Null);
    if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Verdict::Answer(error(
            reply_id,
            INVALID_REQUEST,
            "Invalid request: `jsonrpc` must be \"2.0\"",
        ));
    }
    let method = match m.get("method") {
        Some(Value::String(s)) => s.as_str(),
        Some(_) => {
            return Verdict::Answer(error(
                reply_id,
                INVALID_REQUEST,
                "Invalid request: `method` must be a string",
            ));
        }
        None => {
            // A response to one of the server's requests.
            let response = id.is_some() && (m.contains_key("result") || m.contains_key("error"));
            return if response {
                Verdict::Pass
            } else {
                Verdict::Answer(error(
                    reply_id,
                    INVALID_REQUEST,
                    "Invalid request: a request needs `method` (and `id`), a response `id` and `result` or `error`",
                ))
            };
        }
    };
    let params = m.get("params");
    if params.is_some_and(|p| !p.is_object() && !p.is_null()) {
        // A notification gets no reply, even an error.
        return match id {
            Some(id) => Verdict::Answer(error(id, INVALID_PARAMS, "Invalid params: `params` must be an object")),
            None => Verdict::Skip,
        };
    }
    if method == "tools/call"
        && let Some(id) = id
    {
        let name = params.and_then(|p| p.get("name"));
        let Some(name) = name.and_then(Value::as_str) else {
            return Verdict::Answer(error(
                id,
                INVALID_PARAMS,
                "Invalid params: `name` (the tool's name, a string) is required",
            ));
        };
        if params
            .and_then(|p| p.get("arguments"))
            .is_some_and(|a| !a.is_object() && !a.is_null())
        {
            return Verdict::Answer(error(
                id,
                INVALID_PARAMS,
                "Invalid params: `arguments` must be an object",
            ));
        }
        if !known(name) {
            let msg = format!("Unknown tool: {:?} (see tools/list)", crate::text::sanitize_line(name));
            return Verdict::Answer(error(id, INVALID_PARAMS, &msg));
        }
    }
    Verdict::Pass
}

/// One line `rmcp` wrote, with `"id": null` added to an error reply
/// that lacks an id.
fn with_id(line: String) -> String {
    match serde_json::from_str::<Value>(&line) {
        Ok(Value::Object(mut m)) if m.contains_key("error") && !m.contains_key("id") => {
            m.insert("id".into(), Value::Null);
            Value::Object(m).to_string()
        }
        _ => line,
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes into `buf` (newline
/// dropped). `Ok(None)`: the input ended. `Ok(Some(false))`: the line was
/// too long and was skipped.
async fn read_line<R: AsyncBufRead + Unpin>(input: &mut R, buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    buf.clear();
    let mut over = false;
    loop {
        let chunk = input.fill_buf().await?;
        if chunk.is_empty() {
            return Ok(if buf.is_empty() && !over { None } else { Some(!over) });
        }
        let (part, end) = match chunk.iter().position(|b| *b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if !over && buf.len() + part.len() <= MAX_LINE {
            buf.extend_from_slice(part);
        } else {
            over = true;
            buf.clear();
        }
        let used = end.unwrap_or(chunk.len());
        input.consume(used);
        if end.is_some() {
            return Ok(Some(!over));
        }
    }
}

/// Puts the layer between `input`/`output` (the client) and `rmcp`:
/// returns the pipe ends `rmcp` reads from and writes to, and the task
/// writing to `output`. When `input` ends, `rmcp`'s side ends too; the
/// writing task ends once `rmcp` closed its side and every reply is out.
pub fn front<R, W>(
    input: R,
    output: W,
    known: impl Fn(&str) -> bool + Send + 'static,
) -> (DuplexStream, DuplexStream, tokio::task::JoinHandle<()>)
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (mut to_rmcp, rmcp_reads) = tokio::io::duplex(PIPE);
    let (rmcp_writes, from_rmcp) = tokio::io::duplex(PIPE);
    let (answers, mut answered) = mpsc::unbounded_channel::<Value>();
    tokio::spawn(async move {
        let mut input = BufReader::new(input);
        let mut buf = Vec::new();
        while let Ok(Some(fits)) = read_line(&mut input, &mut buf).await {
            let verdict = if fits {
                check(&buf, &known)
            } else {
                Verdict::Answer(error(
                    Value::Null,
                    INVALID_REQUEST,
                    &format!("Invalid request: a message is at most {} MiB", MAX_LINE >> 20),
                ))
            };
            match verdict {
                Verdict::Pass => {
                    buf.push(b'\n');
                    if to_rmcp.write_all(&buf).await.is_err() {
                        break;
                    }
                }
                Verdict::Skip => {}
                Verdict::Answer(v) => {
                    let _ = answers.send(v);
                }
            }
        }
        // The client is gone: `rmcp` sees its input end.
        let _ = to_rmcp.shutdown().await;
    });
    let writer = tokio::spawn(async move {
        let mut output = output;
        let mut lines = BufReader::new(from_rmcp).lines();
        loop {
            let line = tokio::select! {
                Some(v) = answered.recv() => v.to_string(),
                l = lines.next_line() => match l {
                    Ok(Some(l)) => with_id(l),
                    _ => break,
                },
            };
            if output.write_all(format!("{line}\n").as_bytes()).await.is_err() || output.flush().await.is_err() {
                break;
            }
        }
        while let Ok(v) = answered.try_recv() {
            let _ = output.write_all(format!("{v}\n").as_bytes()).await;
        }
        let _ = output.flush().await;
    });
    (rmcp_reads, rmcp_writes, writer)
}

#[cfg(test)]
mod tests;
