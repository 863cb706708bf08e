//! A Server-Sent Events parser (the WHATWG event-stream format), fed the
//! body's chunks as they arrive. Small enough to keep here rather than pull
//! in a crate and reqwest's `stream` feature: lines end in LF, CRLF or CR
//! (also split across chunks), `:` lines are comments, `data` lines join
//! with LF, `id` sets the last event id (kept across events), a blank line
//! dispatches. One line is capped so a hostile hub cannot grow memory.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The last event id in force when it was dispatched.
    pub id: Option<String>,
    /// `event:` field; `message` when absent.
    pub event: String,
    pub data: String,
}

/// The longest line accepted (an event's data line).
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

#[derive(Debug, Default)]
pub struct SseParser {
    line: Vec<u8>,
    /// The previous chunk ended in CR: a leading LF now belongs to it.
    after_cr: bool,
    started: bool,
    event: String,
    data: String,
    has_data: bool,
    last_id: Option<String>,
    /// `retry:` the server asked for, in milliseconds.
    pub retry_ms: Option<u64>,
}

/// A line longer than [`MAX_LINE_BYTES`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the event stream sent a line longer than {} KiB", MAX_LINE_BYTES / 1024)]
pub struct LineTooLong;

impl SseParser {
    pub fn new() -> Self {
        Self::default()
    }

    /// The parser resumes after a reconnect with the id it last saw.
    pub fn last_id(&self) -> Option<&str> {
        self.last_id.as_deref()
    }

    /// Feeds a chunk; returns the events it completed, in order.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Vec<SseEvent>, LineTooLong> {
        let mut out = Vec::new();
        for &b in chunk {
            if std::mem::take(&mut self.after_cr) && b == b'\n' {
                continue;
            }
            match b {
                b'\n' | b'\r' => {
                    self.after_cr = b == b'\r';
                    let line = std::mem::take(&mut self.line);
                    self.line_done(&line, &mut out);
                }
                _ => {
                    if self.line.len() >= MAX_LINE_BYTES {
                        return Err(LineTooLong);
                    }
                    self.line.push(b);
                }
            }
        }
        Ok(out)
    }

    fn line_done(&mut self, raw: &[u8], out: &mut Vec<SseEvent>) {
        let mut line = String::from_utf8_lossy(raw).into_owned();
        if !self.started {
            self.started = true;
            if let Some(rest) = line.strip_prefix('\u{feff}') {
                line = rest.to_string();
            }
        }
        if line.is_empty() {
            let event = std::mem::take(&mut self.event);
            if std::mem::take(&mut self.has_data) {
                let mut data = std::mem::take(&mut self.data);
                if data.ends_with('\n') {
                    data.pop();
                }
                out.push(SseEvent {
                    id: self.last_id.clone(),
                    event: if event.is_empty() { "message".into() } else { event },
                    data,
                });
            }
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line.as_str(), ""),
        };
        match field {
            "event" => self.event = value.to_string(),
            "data" => {
                self.data.push_str(value);
                self.data.push('\n');
                self.has_data = true;
            }
            "id" if !value.contains('\0') => self.last_id = Some(value.to_string()),
            "retry" => {
                if let Ok(ms) = value.parse::<u64>() {
                    self.retry_ms = Some(ms);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
