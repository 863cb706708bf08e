//! Characters that draw nothing. Two names that look the same must not
//! differ by one of them, and none may hide text or reorder a line, so
//! `sanitize` shows each as a visible placeholder, `<U+200B>`, the way
//! `less` does, except where it does a visible job:
//!
//! - ZWJ U+200D joining an emoji ZWJ sequence (👩‍💻, ❤️‍🔥) or a conjunct
//!   in a script that uses it (क्‍ष), or after a letter of such a script;
//! - ZWNJ U+200C after a letter of a script that uses it (Persian می‌خواهم,
//!   Indic scripts);
//! - a variation selector right after the character it selects a form of
//!   (❤️, 1️⃣, 葛󠄀), not on its own nor doubled;
//! - Mongolian free variation selectors after a Mongolian letter;
//! - tag characters inside a well-formed emoji tag sequence
//!   (🏴 + tags + CANCEL TAG, the England flag).
//!
//! The set is Unicode's Default_Ignorable_Code_Point plus the invisible
//! format (Cf) characters and the line and paragraph separators. The
//! visible Cf characters (the Arabic number signs, U+0600–U+0605 and the
//! like, and Egyptian hieroglyph format controls) and private use
//! characters (they draw a glyph, or a box) are left as they are.

use std::fmt::Write as _;

/// Whether `c` draws nothing (or reorders or breaks the line) and is shown
/// as a placeholder unless its place gives it a job (see [`keeps`]).
pub(super) fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFFB}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// Writes the placeholder for `c`: `<U+200B>`.
pub(super) fn placeholder(out: &mut String, c: char) {
    let _ = write!(out, "<U+{:04X}>", c as u32);
}

fn is_variation_selector(c: char) -> bool {
    matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
}

fn is_mongolian(c: char) -> bool {
    ('\u{1800}'..='\u{18AF}').contains(&c) && !is_invisible(c)
}

/// Letters (and their marks) of the scripts that use ZWJ and ZWNJ in
/// ordinary words: Arabic, Syriac, Thaana, N'Ko, Mandaic, the Indic
/// scripts, Tibetan, Myanmar, Khmer, Mongolian.
pub(super) fn joins(c: char) -> bool {
    matches!(
        c,
        '\u{0600}'..='\u{08FF}'
            | '\u{0900}'..='\u{0DFF}'
            | '\u{0F00}'..='\u{0FFF}'
            | '\u{1000}'..='\u{109F}'
            | '\u{1780}'..='\u{17FF}'
            | '\u{1800}'..='\u{18AF}'
            | '\u{A8E0}'..='\u{A8FF}'
            | '\u{A9E0}'..='\u{A9FF}'
            | '\u{AA60}'..='\u{AA7F}'
            | '\u{FB50}'..='\u{FDFF}'
            | '\u{FE70}'..='\u{FEFC}'
    ) && !is_invisible(c)
}

/// Whether the invisible `g[i]` does a job where it stands; `g` is one
/// grapheme cluster (every character kept here extends the one before it,
/// so its context is inside the cluster), `before` the character before
/// the cluster.
pub(super) fn keeps(g: &[char], i: usize, before: Option<char>) -> bool {
    let prev = i.checked_sub(1).map(|j| g[j]).or(before);
    let next = g.get(i + 1).copied();
    let base = |p: Option<char>| p.is_some_and(|p| !is_invisible(p) && !p.is_control() && !p.is_whitespace());
    match g[i] {
        // Inside a cluster, what follows a ZWJ was joined to it (an emoji
        // ZWJ sequence or an Indic conjunct).
        '\u{200D}' => {
            let emoji_base = prev.is_some_and(|p| base(Some(p)) || p == '\u{FE0F}');
            i > 0 && emoji_base && (next.is_some_and(|n| base(Some(n))) || prev.is_some_and(joins))
        }
        '\u{200C}' => i > 0 && prev.is_some_and(joins),
        '\u{180B}'..='\u{180F}' => prev.is_some_and(is_mongolian),
        c if is_variation_selector(c) => i > 0 && base(prev),
        '\u{E0020}'..='\u{E007F}' => emoji_tag_sequence(g),
        _ => false,
    }
}

/// 🏴 followed by one or more tag characters and CANCEL TAG (U+E007F).
fn emoji_tag_sequence(g: &[char]) -> bool {
    match g {
        ['\u{1F3F4}', tags @ .., '\u{E007F}'] => {
            !tags.is_empty() && tags.iter().all(|c| ('\u{E0020}'..='\u{E007E}').contains(c))
        }
        _ => false,
    }
}
