//! Fitting a list's columns to the overlay's width: narrow screens drop
//! the least useful columns first, the flexible one takes what is left.

use crate::tui::widgets::fit;

/// A column: its header, its width, whether it takes the rest, and how
/// late it is dropped on narrow screens (higher stays longer).
pub(super) struct Col {
    pub(super) header: &'static str,
    width: usize,
    flex: bool,
    keep: u8,
}

pub(super) const fn col(header: &'static str, width: usize, keep: u8) -> Col {
    Col {
        header,
        width,
        flex: false,
        keep,
    }
}
pub(super) const fn flex(header: &'static str, min: usize) -> Col {
    Col {
        header,
        width: min,
        flex: true,
        keep: u8::MAX,
    }
}

/// The widest a flexible column grows.
const FLEX_MAX: usize = 48;

/// Widths for `total` columns (after the 2-column marker); `None` for a
/// dropped column. One space between columns. The flexible column grows to
/// a readable width; what is left stays blank at the end of the row.
pub(super) fn widths(cols: &[Col], total: usize) -> Vec<Option<usize>> {
    use crate::text::columns::{Column, fit_columns};
    let spec: Vec<Column> = cols
        .iter()
        .map(|c| Column {
            want: if c.flex { c.width.max(FLEX_MAX) } else { c.width },
            min: c.width,
            keep: c.keep,
        })
        .collect();
    fit_columns(&spec, total, 1)
}

pub(super) fn row_text(cells: &[String], widths: &[Option<usize>]) -> String {
    cells
        .iter()
        .zip(widths)
        .filter_map(|(c, w)| w.map(|w| fit(c, w)))
        .collect::<Vec<_>>()
        .join(" ")
}
