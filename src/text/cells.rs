//! Emoji sequences in a form every terminal draws at the width `width`
//! measures. A ZWJ sequence (👩‍💻), a VS16 emoji (❤️) or a skin tone
//! (👍🏽) is one grapheme to ratatui, but tmux 3.3 draws a ZWJ sequence
//! as its parts, a VS16 emoji one column wide and a skin tone as a second
//! emoji: the rest of the row, right border included, moves. Without the
//! joiners, selectors and modifiers every terminal agrees: 👩💻 is two
//! emoji of 2 columns, ❤ one column, 👍 two.

use std::borrow::Cow;

/// Drops the emoji ZWJ (not a joiner in a script that uses it: क्‍ष
/// keeps it), the emoji variation selector (VS16 after a character, not on
/// its own: `sanitize` shows that one) and skin tone modifiers.
pub fn plain_emoji(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| c == ZWJ || c == VS16 || is_modifier(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut prev: Option<char> = None;
    for c in s.chars() {
        let drop = match c {
            ZWJ => !prev.is_some_and(super::invisible::joins),
            VS16 => prev.is_some_and(|p| !p.is_whitespace() && !p.is_control()),
            c => is_modifier(c) && prev.is_some_and(|p| !p.is_whitespace()),
        };
        if !drop {
            out.push(c);
        }
        prev = Some(c);
    }
    Cow::Owned(out)
}

const ZWJ: char = '\u{200D}';
const VS16: char = '\u{FE0F}';

fn is_modifier(c: char) -> bool {
    ('\u{1F3FB}'..='\u{1F3FF}').contains(&c)
}
