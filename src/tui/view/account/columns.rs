//! Fitting a list's columns to the overlay's width: narrow screens drop
//! the least useful columns first, the flexible one takes what is left.

use super::super::fit;

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
/// dropped column. One space between columns.
pub(super) fn widths(cols: &[Col], total: usize) -> Vec<Option<usize>> {
    let mut shown: Vec<bool> = vec![true; cols.len()];
    let need = |shown: &[bool]| -> usize {
        let n = shown.iter().filter(|s| **s).count();
        cols.iter()
            .zip(shown)
            .filter(|(_, s)| **s)
            .map(|(c, _)| c.width)
            .sum::<usize>()
            + n.saturating_sub(1)
    };
    while need(&shown) > total {
        let drop = cols
            .iter()
            .enumerate()
            .filter(|(i, c)| shown[*i] && !c.flex)
            .min_by_key(|(_, c)| c.keep)
            .map(|(i, _)| i);
        match drop {
            Some(i) => shown[i] = false,
            None => break,
        }
    }
    // The flexible column grows to a readable width; what is left stays
    // blank at the end of the row.
    let spare = total.saturating_sub(need(&shown));
    cols.iter()
        .zip(&shown)
        .map(|(c, s)| {
            s.then_some(if c.flex {
                (c.width + spare).min(c.width.max(FLEX_MAX))
            } else {
                c.width
            })
        })
        .collect()
}

pub(super) fn row_text(cells: &[String], widths: &[Option<usize>]) -> String {
    cells
        .iter()
        .zip(widths)
        .filter_map(|(c, w)| w.map(|w| fit(c, w)))
        .collect::<Vec<_>>()
        .join(" ")
}
