//! The row `/`'s lookup on the service adds under the matches: looking,
//! the customer found (Enter opens it), nobody has it, or why it failed.

use ratatui::text::{Line, Span};

use crate::text::truncate;
use crate::tui::inbox::contact_list::{Looked, Lookup};
use crate::tui::shared::ViewCx;
use crate::tui::widgets::{clean, fit};

/// The lookup's row, `w` columns wide; none while nothing was asked.
pub fn line(lookup: &Lookup, vcx: &ViewCx, w: usize) -> Option<Line<'static>> {
    let theme = vcx.theme;
    let key = clean(&lookup.key.as_ref()?.label());
    let text = |s: String, style| Some(Line::styled(truncate(&s, w).into_owned(), style));
    match lookup.state.as_ref()? {
        Looked::Looking => text(
            format!("  {} looking {key} up on the service…", vcx.spinner()),
            theme.dim(),
        ),
        Looked::Missing => text(format!("  nobody on the service has {key} either"), theme.dim()),
        Looked::Failed(why) => text(format!("  could not look {key} up: {}", clean(why)), theme.error()),
        Looked::Found(c) => {
            let first = lookup.found_first().is_some();
            let tail = if first {
                " found on the service · Enter opens"
            } else {
                " found on the service"
            };
            let tail_w = crate::tui::text::width(tail);
            let who = if c.name.trim().is_empty() {
                clean(&c.phone_number)
            } else {
                format!("{} {}", clean(&c.name), clean(&c.phone_number))
            };
            let cursor = if first { "▸ " } else { "  " };
            let who = fit(&who, w.saturating_sub(2 + tail_w));
            let line = Line::from(vec![
                Span::raw(cursor),
                Span::raw(who),
                Span::styled(tail, theme.accent()),
            ]);
            Some(if first { line.style(theme.selected()) } else { line })
        }
    }
}
