//! Links in the thread as OSC 8 hyperlinks: attachment URLs, map links
//! and links in a message's text open with a click (or the terminal's
//! own key) where the terminal supports it; elsewhere the sequence is
//! ignored and the text reads as before.
//!
//! Only `http`, `https`, `mailto`, `tel` and `geo` URLs are linked, and
//! only when every character is printable ASCII (OSC 8 takes bytes 32 to
//! 126 only): a URL with a control character (C0, C1, ESC, BEL, DEL), a
//! space or anything else shows as text, never inside an escape sequence.
//!
//! ratatui measures a cell's symbol by its text, escape sequence included,
//! and its diff would skip that many cells after it (the right border
//! with them). So the link's cells are rewritten in chunks of two columns:
//! each chunk's first cell holds the chunk wrapped in OSC 8 with its width
//! forced to the chunk's (`CellDiffOption::ForcedWidth`), the cell after it
//! is skipped, as the cell after a wide character is.

use std::num::NonZeroU16;
use std::sync::Arc;

use ratatui::buffer::{Buffer, CellDiffOption};
use ratatui::layout::Rect;

/// The schemes linked, lower case, with their separator.
const SCHEMES: [&str; 5] = ["https://", "http://", "mailto:", "tel:", "geo:"];

/// A link shown in a line: columns `start..end` of the line's text, and
/// the URL it opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkSpan {
    pub start: u16,
    pub end: u16,
    pub url: Arc<str>,
}

/// `url` when it may be a link: a known scheme with something after it,
/// and printable ASCII only.
pub fn target(url: &str) -> Option<&str> {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let scheme = SCHEMES.iter().find(|s| lower.starts_with(*s))?;
    let printable = url.bytes().all(|b| (0x21..=0x7e).contains(&b));
    (printable && url.len() > scheme.len()).then_some(url)
}

/// The links written in `text`: words that start with a linked scheme
/// (after an opening bracket or quote), without the punctuation that
/// ends a sentence.
pub fn in_text(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for word in text.split_whitespace() {
        let word = word.trim_start_matches(['(', '<', '[', '"', '\'']);
        let mut word = word.trim_end_matches(['.', ',', ';', ':', '!', '?', '"', '\'', '>', ']']);
        // A closing bracket ends the link unless the link opened one.
        while word.ends_with(')') && word.matches('(').count() < word.matches(')').count() {
            word = &word[..word.len() - 1];
        }
        if let Some(url) = target(word)
            && !out.contains(&url)
        {
            out.push(url);
        }
    }
    out
}

/// Where `urls` show in `lines` (one message's lines as laid out, before
/// indentation): `(line, span)` pairs. A URL wrapped over several lines
/// is a span on each. Longer URLs are placed first; a shorter one inside
/// a longer one's text is not linked again.
pub fn locate(lines: &[String], urls: &[&str]) -> Vec<(usize, LinkSpan)> {
    // The lines run together (a wrapped URL continues at the next line's
    // start), each character with its line and column.
    let mut flat = String::new();
    let mut at: Vec<(usize, u16, u16)> = Vec::new(); // by byte: line, column, width
    for (i, l) in lines.iter().enumerate() {
        let mut col: u16 = 0;
        for g in unicode_segmentation::UnicodeSegmentation::graphemes(l.as_str(), true) {
            let w = crate::text::width(g) as u16;
            for _ in 0..g.len() {
                at.push((i, col, w));
            }
            flat.push_str(g);
            col = col.saturating_add(w);
        }
    }
    let mut urls: Vec<&str> = urls.to_vec();
    urls.sort_by_key(|u| std::cmp::Reverse(u.len()));
    urls.dedup();
    let mut taken = vec![false; flat.len()];
    let mut out: Vec<(usize, LinkSpan)> = Vec::new();
    for url in urls {
        let shared: Arc<str> = Arc::from(url);
        for (b, _) in flat.match_indices(url) {
            let range = b..b + url.len();
            if taken[range.clone()].iter().any(|t| *t) {
                continue;
            }
            taken[range.clone()].iter_mut().for_each(|t| *t = true);
            // One span per line the URL's text covers.
            let mut spans: Vec<(usize, LinkSpan)> = Vec::new();
            for &(line, col, w) in &at[range] {
                match spans.last_mut() {
                    Some((l, s)) if *l == line => s.end = s.end.max(col + w),
                    _ => spans.push((
                        line,
                        LinkSpan {
                            start: col,
                            end: col + w,
                            url: shared.clone(),
                        },
                    )),
                }
            }
            out.extend(spans);
        }
    }
    out.sort_by_key(|(l, s)| (*l, s.start));
    out
}

/// `text` wrapped in OSC 8 for `url`.
fn wrapped(url: &str, text: &str) -> String {
    format!("\u{1b}]8;;{url}\u{1b}\\{text}\u{1b}]8;;\u{1b}\\")
}

/// Makes columns `start..end` of row `y` of `buf` a link to `url`, inside
/// `area` only. Nothing when `url` may not be a link.
pub fn apply(buf: &mut Buffer, area: Rect, y: u16, start: u16, end: u16, url: &str) {
    let Some(url) = target(url) else { return };
    if y < area.top() || y >= area.bottom() {
        return;
    }
    let end = end.min(area.right());
    let mut x = start.max(area.left());
    while x < end {
        let first = buf[(x, y)].symbol().to_string();
        let w1 = (crate::text::width(&first) as u16).max(1);
        let (text, width) = if w1 >= 2 || x + 1 >= end {
            (first, w1)
        } else {
            let second = buf[(x + 1, y)].symbol();
            if crate::text::width(second) == 1 {
                (format!("{first}{second}"), 2)
            } else {
                (first, 1)
            }
        };
        // A wide character at the edge: left as it is.
        if x + width > area.right() {
            break;
        }
        let Some(forced) = NonZeroU16::new(width) else { break };
        buf[(x, y)]
            .set_symbol(&wrapped(url, &text))
            .set_diff_option(CellDiffOption::ForcedWidth(forced));
        // Blank as well as skipped: what reads the buffer (the check for
        // wide characters over an overlay, a test) sees the text once.
        for skipped in x + 1..x + width {
            buf[(skipped, y)].set_symbol("").set_diff_option(CellDiffOption::Skip);
        }
        x += width;
    }
}
