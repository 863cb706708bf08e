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
mod tests {
    use super::Scroll;

    fn at(selected: usize, offset: usize) -> Scroll {
        Scroll { selected, offset }
    }

    #[test]
    fn moving_down_past_the_window_scrolls_by_one_row() {
        let mut s = Scroll::default();
        for _ in 0..5 {
            s.move_by(1, 20, 5);
        }
        assert_eq!(s, at(5, 1));
        s.move_by(-3, 20, 5);
        assert_eq!(s, at(2, 1));
        s.move_by(-3, 20, 5);
        assert_eq!(s, at(0, 0));
    }

    #[test]
    fn the_ends_stop_the_selection() {
        let mut s = Scroll::default();
        s.move_by(-1, 10, 4);
        assert_eq!(s, at(0, 0));
        s.select(usize::MAX, 10, 4);
        assert_eq!(s, at(9, 6));
        s.move_by(1, 10, 4);
        assert_eq!(s, at(9, 6));
    }

    #[test]
    fn a_page_moves_one_window() {
        let mut s = Scroll::default();
        s.page(1, 30, 10);
        assert_eq!(s, at(10, 1));
        s.page(1, 30, 10);
        assert_eq!(s, at(20, 11));
        s.page(1, 30, 10);
        assert_eq!(s, at(29, 20));
        s.page(-1, 30, 10);
        assert_eq!(s, at(19, 19));
    }

    #[test]
    fn a_shrinking_list_pulls_the_selection_and_window_back() {
        let mut s = at(40, 35);
        s.clamp(12, 10);
        assert_eq!(s, at(11, 2), "the last row selected, the window full");
        s.clamp(0, 10);
        assert_eq!(s, at(0, 0));
    }

    #[test]
    fn a_taller_window_shows_rows_above_instead_of_blank_rows_below() {
        let mut s = at(9, 8);
        s.clamp(10, 5);
        assert_eq!(s, at(9, 5));
        assert_eq!(s.visible(10, 5), 5..10);
    }

    #[test]
    fn visible_is_the_clamped_window_and_changes_nothing() {
        let s = at(3, 0);
        assert_eq!(s.visible(100, 10), 0..10);
        assert_eq!(s.visible(2, 10), 0..2);
        assert_eq!(at(50, 0).visible(100, 10), 41..51);
        assert_eq!(s, at(3, 0));
    }

    #[test]
    fn a_zero_height_window_acts_as_one_row() {
        let mut s = Scroll::default();
        s.move_by(3, 10, 0);
        assert_eq!(s, at(3, 3));
    }
}
