//! One set of rules for a scrolled list: a selected row and the first row
//! shown. Every list with a selection (the account overlay's tabs, and the
//! contact list) keeps one `Scroll` and moves it only through these methods,
//! so paging and clamping behave the same everywhere.

use std::ops::Range;

/// A selection in a list of `len` rows and the first row of a window of
/// `height` rows. After any method: `selected < len` (0 when empty), the
/// selected row is inside the window, and the window does not end past the
/// list when the list could fill it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scroll {
    pub selected: usize,
    pub offset: usize,
}

impl Scroll {
    /// Keeps `selected` inside `len` and visible in `height` rows.
    pub fn clamp(&mut self, len: usize, height: usize) {
        let height = height.max(1);
        self.selected = self.selected.min(len.saturating_sub(1));
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
        self.offset = self.offset.min(len.saturating_sub(height));
    }

    /// Selects row `index` (past the end: the last row).
    pub fn select(&mut self, index: usize, len: usize, height: usize) {
        self.selected = index;
        self.clamp(len, height);
    }

    /// Moves the selection by `delta` rows, stopping at either end.
    pub fn move_by(&mut self, delta: isize, len: usize, height: usize) {
        let to = if delta < 0 {
            self.selected.saturating_sub(delta.unsigned_abs())
        } else {
            self.selected.saturating_add(delta.unsigned_abs())
        };
        self.select(to, len, height);
    }

    /// Moves the selection by `pages` windows of `height` rows.
    pub fn page(&mut self, pages: isize, len: usize, height: usize) {
        self.move_by(pages.saturating_mul(height.max(1) as isize), len, height);
    }

    /// The rows shown, without changing anything (a view may draw a list
    /// whose length changed since the last clamp).
    pub fn visible(&self, len: usize, height: usize) -> Range<usize> {
        let mut s = *self;
        s.clamp(len, height);
        s.offset..(s.offset + height).min(len)
    }
}

#[cfg(test)]
mod tests;
