//! A check, as code, that a drawn screen is what a terminal would show:
//! no cell hidden under a wide grapheme before it still holds text, and
//! every box keeps its right border in one column from `┐` down to `┘`.

use ratatui::buffer::{Buffer, CellWidth};

const RIGHT_EDGE: [&str; 3] = ["│", "┤", "┃"];

fn row(buf: &Buffer, y: u16) -> String {
    (buf.area.x..buf.area.right()).map(|x| buf[(x, y)].symbol()).collect()
}

/// `Err` with the first thing a terminal would show out of place.
pub(crate) fn intact(buf: &Buffer) -> Result<(), String> {
    nothing_hidden(buf)?;
    drawn_alike(buf)?;
    boxes_whole(buf)
}

/// No cell holds an emoji ZWJ sequence, a VS16 emoji or a skin tone:
/// tmux 3.3 draws those at another width than ratatui lays them out, and
/// the rest of the row (its right border too) moves.
pub(crate) fn drawn_alike(buf: &Buffer) -> Result<(), String> {
    for y in buf.area.y..buf.area.bottom() {
        for x in buf.area.x..buf.area.right() {
            let s = buf[(x, y)].symbol();
            let joined = s.chars().count() > 1 && s.contains('\u{200D}');
            if joined || s.contains('\u{FE0F}') || s.contains(|c| ('\u{1F3FB}'..='\u{1F3FF}').contains(&c)) {
                return Err(format!("{s:?} at ({x}, {y}) is drawn at another width in tmux"));
            }
        }
    }
    Ok(())
}

/// No cell under a wide grapheme holds text (ratatui's diff would never
/// write it).
pub(crate) fn nothing_hidden(buf: &Buffer) -> Result<(), String> {
    let a = buf.area;
    for y in a.y..a.bottom() {
        let mut covered_until = a.x;
        let mut by = (a.x, "");
        for x in a.x..a.right() {
            let s = buf[(x, y)].symbol();
            if x < covered_until {
                if !s.trim().is_empty() {
                    return Err(format!(
                        "row {y}: {s:?} at column {x} is hidden under the wide {:?} at column {}\n{}",
                        by.1,
                        by.0,
                        row(buf, y)
                    ));
                }
                continue;
            }
            // As ratatui's diff counts it.
            covered_until = x + buf[(x, y)].cell_width().max(1);
            by = (x, s);
        }
    }
    Ok(())
}

/// Every box keeps its right border in one column from `┐` down to `┘`.
/// Only where no overlay may cover another box's border (one pane).
pub(crate) fn boxes_whole(buf: &Buffer) -> Result<(), String> {
    let a = buf.area;
    for y in a.y..a.bottom() {
        for x in a.x..a.right() {
            if buf[(x, y)].symbol() != "┐" {
                continue;
            }
            let mut yy = y + 1;
            while yy < a.bottom() && RIGHT_EDGE.contains(&buf[(x, yy)].symbol()) {
                yy += 1;
            }
            // A box cut by the screen's bottom (a tiny terminal) has no `┘`.
            if yy < a.bottom() && buf[(x, yy)].symbol() != "┘" {
                return Err(format!(
                    "the box with its corner at column {x}, row {y} lost its right border on row {yy}: {:?}\n{}",
                    buf[(x, yy)].symbol(),
                    row(buf, yy)
                ));
            }
        }
    }
    Ok(())
}

/// Panics with the screen when `intact` fails.
pub(crate) fn assert_intact(buf: &Buffer, what: &str) {
    panic_on(intact(buf), buf, what);
}

/// Panics with the screen when `check` failed.
pub(crate) fn panic_on(check: Result<(), String>, buf: &Buffer, what: &str) {
    if let Err(e) = check {
        let screen: Vec<String> = (buf.area.y..buf.area.bottom())
            .map(|y| (buf.area.x..buf.area.right()).map(|x| buf[(x, y)].symbol()).collect())
            .collect();
        panic!("{what}: {e}\nscreen:\n{}", screen.join("\n"));
    }
}
