//! The strip of views above the contact list: `1 Mine 3  2 Unassign 12 …`.
//! The current view is bracketed (it reads without colour too); a count is
//! `≥ n` while the account is not all known; a view that cannot hold
//! anything (Mine without an email) is greyed with `–`; a view edited with
//! `f` and not saved has a `*`.

use ratatui::text::{Line, Span};

use super::super::state::Views;
use crate::text::width;
use crate::triage::abbreviate_count;
use crate::tui::theme::Theme;

/// One tab's text, without its brackets or spaces: the view's name, or
/// its short name when `short`.
fn label(views: &Views, i: usize, short: bool) -> String {
    let v = &views.all[i];
    let key = if i < 9 { format!("{} ", i + 1) } else { String::new() };
    let edited = if views.is_edited(i) { "*" } else { "" };
    let count = if views.is_unusable(i) {
        "–".to_string()
    } else {
        match views.counts.get(i) {
            Some(c) if c.at_least => format!("≥{}", abbreviate_count(c.n)),
            Some(c) => abbreviate_count(c.n),
            None => String::new(),
        }
    };
    let name = if short { &v.short } else { &v.name };
    format!("{key}{}{edited} {count}", crate::tui::widgets::clean(name))
}

/// Which tabs the strip shows: `start..end`, by short names or whole ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub start: usize,
    pub end: usize,
    pub short: bool,
}

/// The tabs the strip of inner width `w` shows: as many as fit, the current
/// one always among them. It costs the tabs near the current one, not all
/// of them (a config may hold thousands of views); the update counts these.
pub fn window(views: &Views, w: usize) -> Window {
    let n = views.all.len();
    if n == 0 || w == 0 {
        return Window {
            start: 0,
            end: 0,
            short: false,
        };
    }
    // Whole names when they all fit; else the short ones (80 columns).
    let mut total = 0;
    let short = (0..n).any(|i| {
        total += width(&label(views, i, false)) + 2;
        total > w
    });
    // Each tab takes its label and a space either side (brackets for the
    // current one); `‹` and `›` one column each where tabs are cut off.
    let cost = |i: usize| width(&label(views, i, short)) + 2;
    let current = views.current.min(n - 1);
    let right = usize::from(current + 1 < n);
    // The first tab: as far left as still leaves the current one room.
    let mut start = current;
    let mut used = cost(current);
    while start > 0 {
        let c = cost(start - 1);
        if usize::from(start > 1) + used + c + right > w {
            break;
        }
        used += c;
        start -= 1;
    }
    // Then as many as fit from there.
    let mut used = usize::from(start > 0);
    let mut end = start;
    while end < n {
        let c = cost(end);
        if used + c + usize::from(end + 1 < n) > w {
            break;
        }
        used += c;
        end += 1;
    }
    Window {
        start,
        end: end.max(start + 1).min(n),
        short,
    }
}

/// The strip for an inner width of `w` columns: as many tabs as fit, the
/// current one always among them, `‹` `›` where some are cut off.
pub fn strip(views: &Views, w: usize, theme: &Theme) -> Line<'static> {
    let win = window(views, w);
    if win.start == win.end {
        return Line::raw("");
    }
    let labels: Vec<String> = (win.start..win.end).map(|i| label(views, i, win.short)).collect();
    render(views, &labels, win, theme)
}

fn render(views: &Views, labels: &[String], win: Window, theme: &Theme) -> Line<'static> {
    let mut spans = Vec::new();
    if win.start > 0 {
        spans.push(Span::styled("‹", theme.dim()));
    }
    for (i, text) in (win.start..win.end).zip(labels) {
        if i == views.current {
            spans.push(Span::styled(
                format!("[{text}]"),
                theme.accent().add_modifier(ratatui::style::Modifier::BOLD),
            ));
        } else if views.is_unusable(i) {
            spans.push(Span::styled(format!(" {text} "), theme.dim()));
        } else {
            spans.push(Span::raw(format!(" {text} ")));
        }
    }
    if win.end < views.all.len() {
        spans.push(Span::styled("›", theme.dim()));
    }
    Line::from(spans)
}
