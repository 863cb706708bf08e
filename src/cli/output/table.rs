//! Tables for people: aligned columns, no borders, fitted to the terminal.

use comfy_table::{Attribute, Cell, ContentArrangement, Table, presets};

use super::inert::sanitize;

/// Renders rows as an aligned table (no borders, like `ls -l`).
pub(crate) fn render_table(headers: &[&str], rows: &[Vec<String>], color: bool) -> String {
    let mut table = Table::new();
    table.load_preset(presets::NOTHING);
    // Never wrap: a row stays one line, so `grep` and eyes both find it.
    table.set_content_arrangement(ContentArrangement::Disabled);
    let mut cells: Vec<Vec<String>> = rows.iter().map(|r| r.iter().map(|c| sanitize(c)).collect()).collect();
    let mut headers: Vec<&str> = headers.to_vec();
    if color {
        // On a terminal of known, usable width, shrink the widest columns
        // (never a UUID: it is what the next command needs) and cut their
        // cells with an ellipsis.
        if let Some(width) = table.width().filter(|w| *w >= 40) {
            let keep = fit_columns(&headers, &mut cells, usize::from(width));
            let kept = |v: Vec<String>| v.into_iter().zip(&keep).filter(|(_, k)| **k).map(|(c, _)| c).collect();
            cells = cells.into_iter().map(kept).collect();
            headers = headers
                .into_iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(h, _)| h)
                .collect();
        }
    } else {
        table.force_no_tty();
    }
    table.set_header(headers.iter().map(|h| {
        let cell = Cell::new(h);
        if color {
            cell.add_attribute(Attribute::Bold)
        } else {
            cell
        }
    }));
    for row in cells {
        table.add_row(row.into_iter().map(Cell::new));
    }
    for col in table.column_iter_mut() {
        col.set_padding((0, 2));
    }
    let mut s = String::new();
    // The borderless preset still draws an (all-blank) header separator.
    for line in table.to_string().lines().filter(|l| !l.trim().is_empty()) {
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

/// Makes the table fit `width` terminal columns (see
/// `crate::text::columns`): columns are hidden from the right while they
/// cannot all keep a readable width (never the first, never a UUID: it is
/// what the next command needs), then the widest are cut. Returns which
/// columns are kept.
fn fit_columns(headers: &[&str], rows: &mut [Vec<String>], width: usize) -> Vec<bool> {
    use crate::text::columns::{Column, fit_columns as fit, truncate_to_width};
    use crate::text::width as cols;
    // A column is hidden rather than squeezed below READABLE.
    const READABLE: usize = 12;
    let n = headers.len();
    let mut wants: Vec<usize> = headers.iter().map(|h| cols(h)).collect();
    for row in rows.iter() {
        for (w, cell) in wants.iter_mut().zip(row) {
            *w = (*w).max(cols(cell));
        }
    }
    let spec: Vec<Column> = (0..n)
        .map(|i| {
            if headers[i] == "UUID" || i == 0 {
                let min = if headers[i] == "UUID" {
                    wants[i]
                } else {
                    wants[i].min(READABLE)
                };
                Column {
                    want: wants[i],
                    min,
                    keep: u8::MAX,
                }
            } else {
                Column {
                    want: wants[i],
                    min: wants[i].min(READABLE),
                    // The further right, the sooner hidden.
                    keep: u8::try_from(n - i).unwrap_or(u8::MAX - 1).min(u8::MAX - 1),
                }
            }
        })
        .collect();
    let widths = fit(&spec, width, 2);
    for row in rows.iter_mut() {
        for (cell, w) in row.iter_mut().zip(&widths) {
            if let Some(w) = w
                && cols(cell) > *w
            {
                *cell = truncate_to_width(cell, *w);
            }
        }
    }
    widths.iter().map(Option::is_some).collect()
}

#[cfg(test)]
mod tests;
