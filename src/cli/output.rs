//! Rendering: tables and records for people, JSON and JSON lines for
//! scripts. Text from the server is untrusted: every table cell and record
//! value goes through `sanitize`. JSON keeps the data as it is; serde_json
//! escapes C0 controls, and `json_safe` also escapes C1 controls and bidi
//! overrides (`\u009b`), so a terminal showing the JSON interprets none.

use std::io::Write;

use chrono::{DateTime, Local, Utc};
use serde::Serialize;

use super::error::CliError;

mod inert;
mod progress;
mod table;

pub use inert::sanitize;
pub(crate) use inert::sanitize_multiline;
pub(crate) use progress::Progress;
pub use progress::{LINE_EVERY, LINE_EVERY_ENV, ProgressMode};
pub(crate) use table::render_table;

/// Output format chosen by `--json` / `--jsonl`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Table,
    Json,
    Jsonl,
}

/// A timestamp in local time for a table cell; empty when unknown.
pub(crate) fn local_time(t: Option<DateTime<Utc>>) -> String {
    t.map(|t| t.with_timezone(&Local).format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_default()
}

/// A timestamp in local time, with seconds and offset, for a record.
pub(crate) fn local_time_long(t: Option<DateTime<Utc>>) -> String {
    t.map(|t| t.with_timezone(&Local).format("%Y-%m-%d %H:%M:%S %:z").to_string())
        .unwrap_or_default()
}

/// Cuts a table cell to `max` terminal columns (by grapheme), with an
/// ellipsis.
pub(crate) fn truncate(s: &str, max: usize) -> String {
    crate::text::truncate(s, max).into_owned()
}

/// A yes/no cell.
pub(crate) fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// A type shown as one row of a table.
pub(crate) trait Tabular: Serialize {
    fn headers() -> &'static [&'static str];
    fn row(&self) -> Vec<String>;
}

/// A type shown as a key/value record.
pub(crate) trait Recordable: Serialize {
    fn fields(&self) -> Vec<(String, String)>;
}

/// Renders key/value pairs, keys aligned; multi-line values are indented.
pub(crate) fn render_record(fields: &[(String, String)], color: bool) -> String {
    // Keys are measured as shown (sanitized, in columns: `crate::text::width`).
    let width = fields
        .iter()
        .map(|(k, _)| crate::text::width(&sanitize(k)))
        .max()
        .unwrap_or(0);
    let mut s = String::new();
    for (k, v) in fields {
        let key = sanitize(k);
        let pad = " ".repeat(width.saturating_sub(crate::text::width(&key)));
        if color {
            s.push_str(&format!("\x1b[1m{key}\x1b[0m{pad}  "));
        } else {
            s.push_str(&format!("{key}{pad}  "));
        }
        let value = sanitize_multiline(v);
        let mut lines = value.split('\n');
        s.push_str(lines.next().unwrap_or(""));
        s.push('\n');
        for line in lines {
            s.push_str(&" ".repeat(width + 2));
            s.push_str(line);
            s.push('\n');
        }
    }
    s
}

/// Escapes, in encoded JSON, the characters a terminal may act on that
/// serde_json leaves raw: C1 controls (U+0080–U+009F; U+009B reads as CSI)
/// and bidi embeddings, overrides and isolates. They can only stand inside
/// strings, so `\uXXXX` there is the same data, still valid JSON.
pub(crate) fn json_safe(json: String) -> String {
    let risky = |c: char| {
        ('\u{80}'..='\u{9f}').contains(&c)
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{061c}')
    };
    if !json.chars().any(risky) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if risky(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

fn json_line<T: Serialize + ?Sized>(v: &T) -> Result<String, CliError> {
    serde_json::to_string(v).map(json_safe).map_err(encode_err)
}

fn json_pretty<T: Serialize + ?Sized>(v: &T) -> Result<String, CliError> {
    serde_json::to_string_pretty(v).map(json_safe).map_err(encode_err)
}

/// One object as a document in the chosen format.
pub(crate) fn object_doc<T: Recordable>(format: Format, color: bool, item: &T) -> Result<String, CliError> {
    Ok(match format {
        Format::Table => render_record(&item.fields(), color),
        Format::Json => json_pretty(item)? + "\n",
        Format::Jsonl => json_line(item)? + "\n",
    })
}

/// A list as a document in the chosen format.
pub(crate) fn list_doc<T: Tabular>(format: Format, color: bool, items: &[T]) -> Result<String, CliError> {
    Ok(match format {
        Format::Table => {
            let rows: Vec<Vec<String>> = items.iter().map(Tabular::row).collect();
            render_table(T::headers(), &rows, color)
        }
        Format::Json => {
            if items.is_empty() {
                return Ok("[]\n".to_string());
            }
            let mut s = String::from("[\n");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    s.push_str(",\n");
                }
                s.push_str(&json_line(item)?);
            }
            s.push_str("\n]\n");
            s
        }
        Format::Jsonl => {
            let mut s = String::new();
            for item in items {
                s.push_str(&json_line(item)?);
                s.push('\n');
            }
            s
        }
    })
}

/// Receives a list page by page. JSON lines are written and flushed as each
/// page arrives (bounded memory). A JSON array is encoded page by page into a
/// buffer (one compact element a line, so the parsed items are not all kept)
/// and a table collects its rows; both are written by `finish`, so a failed
/// walk prints nothing.
pub(crate) struct ListWriter<T> {
    format: Format,
    color: bool,
    rows: Vec<Vec<String>>,
    count: u64,
    buf: Vec<u8>,
    _items: std::marker::PhantomData<fn(T)>,
}

fn encode_err(e: serde_json::Error) -> CliError {
    CliError::Other(format!("cannot encode the answer as JSON: {e}"))
}

impl<T: Tabular> ListWriter<T> {
    pub fn new(format: Format, color: bool) -> Self {
        ListWriter {
            format,
            color,
            rows: Vec::new(),
            count: 0,
            buf: Vec::new(),
            _items: std::marker::PhantomData,
        }
    }

    /// Items received so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    pub fn push_page(&mut self, out: &mut dyn Write, items: Vec<T>) -> Result<(), CliError> {
        match self.format {
            Format::Jsonl => {
                self.buf.clear();
                for item in &items {
                    self.buf.extend_from_slice(json_line(item)?.as_bytes());
                    self.buf.push(b'\n');
                }
                out.write_all(&self.buf)?;
                out.flush()?;
            }
            Format::Json => {
                for (i, item) in items.iter().enumerate() {
                    self.buf
                        .extend_from_slice(if self.count == 0 && i == 0 { b"[\n" } else { b",\n" });
                    self.buf.extend_from_slice(json_line(item)?.as_bytes());
                }
            }
            Format::Table => self.rows.extend(items.iter().map(Tabular::row)),
        }
        self.count += items.len() as u64;
        Ok(())
    }

    pub fn finish(mut self, out: &mut dyn Write) -> Result<(), CliError> {
        match self.format {
            Format::Jsonl => {}
            Format::Json => {
                if self.count == 0 {
                    self.buf.extend_from_slice(b"[]\n");
                } else {
                    self.buf.extend_from_slice(b"\n]\n");
                }
                out.write_all(&self.buf)?;
            }
            Format::Table => out.write_all(render_table(T::headers(), &self.rows, self.color).as_bytes())?,
        }
        out.flush()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
