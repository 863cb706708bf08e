//! Fitting table columns into a width: one rule for the CLI's tables and
//! the TUI's account overlay.
//!
//! Each column wants a width and can shrink to a floor. When even the
//! floors do not fit, columns are hidden, the least important first (ties:
//! the rightmost first); a column with `keep == u8::MAX` is never hidden.
//! Then the widest shrinkable column gives up one cell at a time until the
//! row fits (or nothing can shrink further).

/// One column's needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// The width it would like (its widest cell, or a fixed width).
    pub want: usize,
    /// The narrowest it may become; `min == want` never shrinks.
    pub min: usize,
    /// Importance: lower is hidden earlier; `u8::MAX` is never hidden.
    pub keep: u8,
}

impl Column {
    /// A column that never shrinks.
    pub const fn fixed(width: usize, keep: u8) -> Column {
        Column {
            want: width,
            min: width,
            keep,
        }
    }
}

/// Widths for `cols` in `available` cells with `gap` cells between shown
/// columns; `None` for a hidden column.
pub fn fit_columns(cols: &[Column], available: usize, gap: usize) -> Vec<Option<usize>> {
    let mut shown = vec![true; cols.len()];
    let total = |shown: &[bool], w: &dyn Fn(usize) -> usize| -> usize {
        let idx: Vec<usize> = (0..cols.len()).filter(|&i| shown[i]).collect();
        idx.iter().map(|&i| w(i)).sum::<usize>() + gap * idx.len().saturating_sub(1)
    };
    while total(&shown, &|i| cols[i].min) > available {
        let drop = (0..cols.len())
            .rev()
            .filter(|&i| shown[i] && cols[i].keep != u8::MAX)
            .min_by_key(|&i| cols[i].keep);
        match drop {
            Some(i) => shown[i] = false,
            None => break,
        }
    }
    let mut widths: Vec<usize> = cols.iter().map(|c| c.want.max(c.min)).collect();
    while total(&shown, &|i| widths[i]) > available {
        let widest = (0..cols.len())
            .filter(|&i| shown[i] && widths[i] > cols[i].min)
            .max_by_key(|&i| widths[i]);
        match widest {
            Some(i) => widths[i] -= 1,
            None => break,
        }
    }
    widths.into_iter().zip(shown).map(|(w, s)| s.then_some(w)).collect()
}

/// Cuts `s` to at most `max` columns (by grapheme, with `…`); see
/// [`super::truncate`].
pub fn truncate_to_width(s: &str, max: usize) -> String {
    super::truncate(s, max).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everything_fits_as_wanted_when_there_is_room() {
        let cols = [
            Column::fixed(4, 1),
            Column {
                want: 10,
                min: 3,
                keep: 2,
            },
        ];
        assert_eq!(fit_columns(&cols, 40, 2), vec![Some(4), Some(10)]);
    }

    #[test]
    fn the_widest_shrinkable_column_shrinks_first_down_to_its_floor() {
        let cols = [
            Column {
                want: 20,
                min: 8,
                keep: 9,
            },
            Column {
                want: 12,
                min: 8,
                keep: 9,
            },
            Column::fixed(32, u8::MAX),
        ];
        // 20 + 12 + 32 + 4 = 68 > 60: shrink by 8, widest first.
        assert_eq!(fit_columns(&cols, 60, 2), vec![Some(12), Some(12), Some(32)]);
        // Floors 8 + 8 + 32 + 4 = 52 fit at 52.
        assert_eq!(fit_columns(&cols, 52, 2), vec![Some(8), Some(8), Some(32)]);
    }

    #[test]
    fn columns_are_hidden_least_important_first_and_rightmost_on_ties() {
        let cols = [
            Column::fixed(10, u8::MAX),
            Column::fixed(10, 3),
            Column::fixed(10, 1),
            Column::fixed(10, 3),
        ];
        assert_eq!(fit_columns(&cols, 32, 1), vec![Some(10), Some(10), None, Some(10)]);
        assert_eq!(fit_columns(&cols, 21, 1), vec![Some(10), Some(10), None, None]);
        assert_eq!(fit_columns(&cols, 20, 1), vec![Some(10), None, None, None]);
        // Never-hidden columns stay even when nothing fits.
        assert_eq!(fit_columns(&cols, 3, 1), vec![Some(10), None, None, None]);
    }

    #[test]
    fn truncation_is_by_display_width() {
        assert_eq!(truncate_to_width("你好世界", 5), "你好…");
        assert_eq!(truncate_to_width("short", 10), "short");
    }
}
