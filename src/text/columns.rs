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
mod tests;
