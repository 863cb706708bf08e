//! A check, as code, that a drawn screen is what a terminal would show:
//! no cell hidden under a wide grapheme before it still holds text, and
//! every box keeps its right border in one column from `┐` down to `┘`.

use ratatui::buffer::Buffer;
use unicode_width::UnicodeWidthStr;

const RIGHT_EDGE: [&str; 3] = ["│", "┤", "┃"];

/// `Err` with the first thing a terminal would show out of place.
pub(crate) fn intact(buf: &Buffer) -> Result<(), String> {
    let a = buf.area;
    let row = |y: u16| (a.x..a.right()).map(|x| buf[(x, y)].symbol()).collect::<String>();
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
                        row(y)
                    ));
                }
                continue;
            }
            covered_until = x + (UnicodeWidthStr::width(s) as u16).max(1);
            by = (x, s);
        }
    }
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
                    row(yy)
                ));
            }
        }
    }
    Ok(())
}

/// Panics with the screen when `intact` fails.
pub(crate) fn assert_intact(buf: &Buffer, what: &str) {
    if let Err(e) = intact(buf) {
        let screen: Vec<String> = (buf.area.y..buf.area.bottom())
            .map(|y| (buf.area.x..buf.area.right()).map(|x| buf[(x, y)].symbol()).collect())
            .collect();
        panic!("{what}: {e}\nscreen:\n{}", screen.join("\n"));
    }
}
