//! A single-line text input: the value as typed (raw), a cursor on a
//! grapheme boundary, and a view that sanitizes grapheme by grapheme so the
//! cursor column always matches what is drawn.

use crossterm::event::KeyEvent;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;

use crate::tui::keymap::{Keymap, Mode, ModeAction, typed_char};
use crate::tui::text::{clean_line, width};

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct LineInput {
    value: String,
    /// Byte offset, always on a grapheme boundary.
    cursor: usize,
}

impl LineInput {
    pub(crate) fn new(value: impl Into<String>) -> LineInput {
        let value = value.into();
        let cursor = value.len();
        LineInput { value, cursor }
    }

    pub(crate) fn value(&self) -> &str {
        &self.value
    }

    pub(crate) fn clear(&mut self) {
        self.value.clear();
        self.cursor = 0;
    }

    /// Inserts text at the cursor. Newlines and other controls are dropped
    /// (tabs become a space): a single line stays a single line.
    pub(crate) fn insert_str(&mut self, s: &str) {
        let clean: String = s
            .chars()
            .map(|c| if c == '\t' || c == '\n' { ' ' } else { c })
            .filter(|c| !c.is_control() && *c != '\r')
            .collect();
        self.value.insert_str(self.cursor, &clean);
        self.cursor += clean.len();
        self.snap_cursor();
    }

    /// Combining marks typed after a base letter join its grapheme; keep the
    /// cursor after the whole grapheme.
    fn snap_cursor(&mut self) {
        if let Some((start, g)) = self
            .value
            .grapheme_indices(true)
            .find(|(i, g)| *i < self.cursor && i + g.len() > self.cursor)
        {
            self.cursor = start + g.len();
        }
    }

    fn prev_boundary(&self) -> usize {
        self.value[..self.cursor]
            .grapheme_indices(true)
            .next_back()
            .map_or(0, |(i, _)| i)
    }

    fn next_boundary(&self) -> usize {
        self.value[self.cursor..]
            .graphemes(true)
            .next()
            .map_or(self.cursor, |g| self.cursor + g.len())
    }

    /// Handles a key: an editing key of `keys`' `text.*` rows, or a typed
    /// character. Returns true when the value changed; keys it does not
    /// know are ignored.
    pub(crate) fn handle_key(&mut self, keys: &Keymap, key: KeyEvent) -> bool {
        if let Some(action) = keys.mode_action_for(Mode::Text, &key) {
            return self.edit(action);
        }
        let Some(c) = typed_char(&key) else { return false };
        let mut buf = [0u8; 4];
        let before = self.value.len();
        self.insert_str(c.encode_utf8(&mut buf));
        self.value.len() != before
    }

    /// Does one editing action; true when the value changed.
    fn edit(&mut self, action: ModeAction) -> bool {
        let (start, end) = match action {
            ModeAction::DeleteToStart => (0, self.cursor),
            ModeAction::DeleteToEnd => (self.cursor, self.value.len()),
            ModeAction::DeleteWord => {
                let trimmed = self.value[..self.cursor].trim_end();
                let start = trimmed
                    .char_indices()
                    .rfind(|(_, c)| c.is_whitespace())
                    .map_or(0, |(i, c)| i + c.len_utf8());
                (start, self.cursor)
            }
            ModeAction::DeleteChar => (self.prev_boundary(), self.cursor),
            ModeAction::DeleteForward => (self.cursor, self.next_boundary()),
            motion => {
                self.cursor = match motion {
                    ModeAction::Home => 0,
                    ModeAction::End => self.value.len(),
                    ModeAction::Left => self.prev_boundary(),
                    ModeAction::Right => self.next_boundary(),
                    ModeAction::WordLeft => self.word_back(),
                    ModeAction::WordRight => self.word_forward(),
                    _ => self.cursor,
                };
                return false;
            }
        };
        self.value.replace_range(start..end, "");
        self.cursor = start;
        start < end
    }

    /// The start of the word before the cursor (spaces before it skipped).
    fn word_back(&self) -> usize {
        let mut at = self.cursor;
        let mut in_word = false;
        for (i, g) in self.value[..self.cursor].grapheme_indices(true).rev() {
            let space = g.chars().all(char::is_whitespace);
            if space && in_word {
                break;
            }
            in_word |= !space;
            at = i;
        }
        at
    }

    /// The start of the next word (the rest of this one and the spaces
    /// after it skipped), or the end.
    fn word_forward(&self) -> usize {
        let mut seen_space = false;
        for (i, g) in self.value[self.cursor..].grapheme_indices(true) {
            let space = g.chars().all(char::is_whitespace);
            if !space && seen_space {
                return self.cursor + i;
            }
            seen_space |= space;
        }
        self.value.len()
    }

    /// The visible part of the value in `cols` columns, scrolled so the
    /// cursor shows, and the cursor's column within it.
    pub(crate) fn view(&self, cols: usize, style: Style) -> (Line<'static>, u16) {
        if cols == 0 {
            return (Line::default(), 0);
        }
        // (display text, width, starts at or after the cursor)
        let cells: Vec<(String, usize, bool)> = self
            .value
            .grapheme_indices(true)
            .map(|(i, g)| {
                let shown = clean_line(g);
                let w = width(&shown);
                (shown, w, i >= self.cursor)
            })
            .collect();
        let cursor_idx = cells.iter().position(|c| c.2).unwrap_or(cells.len());
        // Leave one column for the cursor at the end.
        let budget = cols.saturating_sub(1).max(1);
        let mut start = 0;
        let mut before: usize = cells[..cursor_idx].iter().map(|c| c.1).sum();
        while before > budget && start < cursor_idx {
            before -= cells[start].1;
            start += 1;
        }
        let mut text = String::new();
        let mut used = 0;
        for (shown, w, _) in &cells[start..] {
            if used + w > cols {
                break;
            }
            text.push_str(shown);
            used += w;
        }
        (
            Line::from(Span::styled(text, style)),
            before.min(cols.saturating_sub(1)) as u16,
        )
    }
}

#[cfg(test)]
mod tests;
