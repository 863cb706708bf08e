//! Text from the server is untrusted: escape sequences and control
//! characters must never reach the terminal raw. Everything the TUI draws and
//! the CLI prints in table or record form from server data goes through
//! `sanitize`.

mod cells;
pub mod columns;
mod invisible;

use std::borrow::Cow;

pub use cells::plain_emoji;
use unicode_segmentation::UnicodeSegmentation;

/// Makes `s` inert for a terminal cell grid:
/// - ESC and the sequence it starts (CSI `ESC [ … final`, OSC `ESC ] … BEL/ST`,
///   two-byte escapes) become a visible `␛` followed by the sequence's text,
///   so nothing is interpreted;
/// - other C0 controls and DEL become their Control Pictures (`␀`…`␟`, `␡`);
///   tab becomes spaces, newline is kept only when `keep_newlines`;
/// - C1 controls (U+0080–U+009F), bidi embeddings, overrides, isolates and
///   marks (they can reorder the rest of the line), and the characters that
///   draw nothing (zero-width space, word joiner, soft hyphen, BOM, tag
///   characters, a variation selector on its own, …) become a visible
///   placeholder, `<U+200B>`, as `less` shows them: two names that look the
///   same then read differently, and nothing hides. Where such a character
///   does a visible job it stays: ZWJ in 👩‍💻, VS16 in ❤️, the England flag's
///   tags, ZWNJ in Persian; see [`invisible`] for the rules. Combining
///   marks and right-to-left letters are ordinary text and are kept.
pub fn sanitize(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    if !s.chars().any(|c| needs_replacing(c, keep_newlines)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut before = None;
    let mut chars = Vec::new();
    for g in s.graphemes(true) {
        chars.clear();
        chars.extend(g.chars());
        for (i, &c) in chars.iter().enumerate() {
            match c {
                '\n' if keep_newlines => out.push('\n'),
                '\r' if keep_newlines => {}
                '\t' => out.push_str("    "),
                '\u{1b}' => out.push('␛'),
                '\u{7f}' => out.push('␡'),
                c if (c as u32) < 0x20 => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('�')),
                c if is_c1(c) => invisible::placeholder(&mut out, c),
                c if invisible::is_invisible(c) && !invisible::keeps(&chars, i, before) => {
                    invisible::placeholder(&mut out, c)
                }
                c => out.push(c),
            }
        }
        before = chars.last().copied();
    }
    Cow::Owned(out)
}

/// `sanitize` for one line: newlines become `⏎ ` so a single row stays one row.
pub fn sanitize_line(s: &str) -> String {
    sanitize(s, true).replace('\n', "⏎ ")
}

/// Server text for one row of cells: [`sanitize_line`], then [`plain_flags`],
/// [`plain_sound_marks`] and [`plain_emoji`], so that what [`width`] measures is what the
/// terminal draws. Every pane and overlay draws server text through this
/// (or [`clean_text`] for several lines).
pub fn clean_line(s: &str) -> String {
    for_cells(sanitize_line(s))
}

/// [`clean_line`] keeping the line breaks.
pub fn clean_text(s: &str) -> String {
    for_cells(sanitize(s, true).into_owned())
}

fn for_cells(s: String) -> String {
    let s = match plain_flags(&s) {
        Cow::Borrowed(_) => s,
        Cow::Owned(o) => o,
    };
    let s = match plain_sound_marks(&s) {
        Cow::Borrowed(_) => s,
        Cow::Owned(o) => o,
    };
    match plain_emoji(&s) {
        Cow::Borrowed(_) => s,
        Cow::Owned(o) => o,
    }
}

fn needs_replacing(c: char, keep_newlines: bool) -> bool {
    match c {
        '\n' => !keep_newlines,
        c => (c as u32) < 0x20 || c == '\u{7f}' || is_c1(c) || invisible::is_invisible(c),
    }
}

fn is_c1(c: char) -> bool {
    ('\u{80}'..='\u{9f}').contains(&c)
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

/// Halfwidth katakana voiced and semi-voiced sound marks (ﾞ ﾟ) become
/// their spacing forms (゛ ゜): attached to the kana before them they make
/// one grapheme that ratatui draws one cell wider than terminals do (stale
/// cells on screen); on their own the width is agreed on.
pub fn plain_sound_marks(s: &str) -> Cow<'_, str> {
    if !s.contains(['\u{FF9E}', '\u{FF9F}']) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(s.replace('\u{FF9E}', "\u{309B}").replace('\u{FF9F}', "\u{309C}"))
}

/// Display width in terminal columns, the one measure of every pane,
/// overlay and table: grapheme by grapheme, as ratatui lays cells out (a
/// ZWJ sequence such as 👩‍💻 or a VS16 one such as ❤️ is one grapheme of 2
/// columns, a CJK ideograph 2, a combining mark 0), with control
/// characters, which ratatui drops, counting 0.
pub fn width(s: &str) -> usize {
    if s.is_ascii() {
        return s.bytes().filter(|b| !b.is_ascii_control()).count();
    }
    s.graphemes(true).map(grapheme_width).sum()
}

/// The columns one grapheme takes.
fn grapheme_width(g: &str) -> usize {
    use ratatui::buffer::CellWidth;
    if g.contains(char::is_control) {
        0
    } else {
        usize::from(g.cell_width())
    }
}

/// Cuts `s` to at most `max` columns by whole graphemes, ending with `…`
/// when something was cut.
pub fn truncate(s: &str, max: usize) -> Cow<'_, str> {
    if width(s) <= max {
        return Cow::Borrowed(s);
    }
    if max == 0 {
        return Cow::Borrowed("");
    }
    let mut out = String::new();
    let mut used = 0;
    for g in s.graphemes(true) {
        let w = grapheme_width(g);
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
