//! A single-line text input: the value as typed (raw), a cursor on a
//! grapheme boundary, and a view that sanitizes grapheme by grapheme so the
//! cursor column always matches what is drawn.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;

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

    /// Handles an editing key. Returns true when the value changed; keys it
    /// does not know are ignored.
    pub(crate) fn handle_key(&mut self, key: KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('u') if ctrl => {
                let changed = self.cursor > 0;
                self.value.replace_range(..self.cursor, "");
                self.cursor = 0;
                changed
            }
            KeyCode::Char('w') if ctrl => {
                let before = &self.value[..self.cursor];
                let trimmed = before.trim_end();
                let start = trimmed.rfind(char::is_whitespace).map_or(0, |i| i + 1);
                let changed = start < self.cursor;
                self.value.replace_range(start..self.cursor, "");
                self.cursor = start;
                changed
            }
            KeyCode::Char('a') if ctrl => {
                self.cursor = 0;
                false
            }
            KeyCode::Char('e') if ctrl => {
                self.cursor = self.value.len();
                false
            }
            KeyCode::Char(c) if !ctrl && !key.modifiers.contains(KeyModifiers::ALT) => {
                let mut buf = [0u8; 4];
                let before = self.value.len();
                self.insert_str(c.encode_utf8(&mut buf));
                self.value.len() != before
            }
            KeyCode::Backspace => {
                let start = self.prev_boundary();
                let changed = start < self.cursor;
                self.value.replace_range(start..self.cursor, "");
                self.cursor = start;
                changed
            }
            KeyCode::Delete => {
                let end = self.next_boundary();
                let changed = end > self.cursor;
                self.value.replace_range(self.cursor..end, "");
                changed
            }
            KeyCode::Left => {
                self.cursor = self.prev_boundary();
                false
            }
            KeyCode::Right => {
                self.cursor = self.next_boundary();
                false
            }
            KeyCode::Home => {
                self.cursor = 0;
                false
            }
            KeyCode::End => {
                self.cursor = self.value.len();
                false
            }
            _ => false,
        }
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
