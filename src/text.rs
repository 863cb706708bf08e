//! Text from the server is untrusted: escape sequences and control
//! characters must never reach the terminal raw. Everything the TUI draws and
//! the CLI prints in table or record form from server data goes through
//! `sanitize`.

pub mod columns;

use std::borrow::Cow;

use unicode_width::UnicodeWidthStr;

/// Makes `s` inert for a terminal cell grid:
/// - ESC and the sequence it starts (CSI `ESC [ … final`, OSC `ESC ] … BEL/ST`,
///   two-byte escapes) become a visible `␛` followed by the sequence's text,
///   so nothing is interpreted;
/// - other C0 controls and DEL become their Control Pictures (`␀`…`␟`, `␡`);
///   tab becomes spaces, newline is kept only when `keep_newlines`;
/// - C1 controls (U+0080–U+009F) become `�`;
/// - bidi embedding/override/isolate controls become `�` (they can reorder
///   the rest of the line); ordinary right-to-left letters are kept.
pub fn sanitize(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    if !s.chars().any(|c| needs_replacing(c, keep_newlines)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' if keep_newlines => out.push('\n'),
            '\r' if keep_newlines => {}
            '\t' => out.push_str("    "),
            '\u{1b}' => out.push('␛'),
            '\u{7f}' => out.push('␡'),
            c if (c as u32) < 0x20 => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('�')),
            c if is_c1(c) || is_bidi_control(c) => out.push('�'),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `sanitize` for one line: newlines become `⏎ ` so a single row stays one row.
pub fn sanitize_line(s: &str) -> String {
    sanitize(s, true).replace('\n', "⏎ ")
}

fn needs_replacing(c: char, keep_newlines: bool) -> bool {
    match c {
        '\n' => !keep_newlines,
        c => (c as u32) < 0x20 || c == '\u{7f}' || is_c1(c) || is_bidi_control(c),
    }
}

fn is_c1(c: char) -> bool {
    ('\u{80}'..='\u{9f}').contains(&c)
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{061c}')
}

/// Flags (regional indicator pairs, e.g. 🇯🇵) become their letters (`JP`):
/// terminals and multiplexers disagree on their width, and a disagreement
/// leaves stale cells on screen.
pub fn plain_flags(s: &str) -> Cow<'_, str> {
    let is_ri = |c: char| ('\u{1f1e6}'..='\u{1f1ff}').contains(&c);
    if !s.chars().any(is_ri) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .map(|c| {
                if is_ri(c) {
                    char::from(b'A' + (c as u32 - 0x1f1e6) as u8)
                } else {
                    c
                }
            })
            .collect(),
    )
}

/// Display width in terminal columns.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// Cuts `s` to at most `max` columns by whole graphemes, ending with `…`
/// when something was cut.
pub fn truncate(s: &str, max: usize) -> Cow<'_, str> {
    use unicode_segmentation::UnicodeSegmentation;
    if width(s) <= max {
        return Cow::Borrowed(s);
    }
    if max == 0 {
        return Cow::Borrowed("");
    }
    let mut out = String::new();
    let mut used = 0;
    for g in s.graphemes(true) {
        let w = width(g);
        if used + w > max - 1 {
            break;
        }
        out.push_str(g);
        used += w;
    }
    out.push('…');
    Cow::Owned(out)
}

#[cfg(test)]
mod tests;
