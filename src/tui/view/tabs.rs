//! The strip of views above the contact list: `1 Mine 3  2 Unassign 12 …`.
//! The current view is bracketed (it reads without colour too); a count is
//! `≥ n` while the account is not all known; a view that cannot hold
//! anything (Mine without an email) is greyed with `–`; a view edited with
//! `f` and not saved has a `*`.

use ratatui::text::{Line, Span};

use crate::triage::abbreviate_count;
use crate::tui::model::views::Views;
use crate::tui::text::width;
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
    format!("{key}{}{edited} {count}", crate::tui::view::clean(name))
}

/// The strip for an inner width of `w` columns: as many tabs as fit, the
/// current one always among them, `‹` `›` where some are cut off.
pub fn strip(views: &Views, w: usize, theme: &Theme) -> Line<'static> {
    let n = views.all.len();
    if n == 0 || w == 0 {
        return Line::raw("");
    }
    // Whole names when they all fit; else the short ones (80 columns).
    let mut labels: Vec<String> = (0..n).map(|i| label(views, i, false)).collect();
    if labels.iter().map(|l| width(l) + 2).sum::<usize>() > w {
        labels = (0..n).map(|i| label(views, i, true)).collect();
    }
    // Each tab takes its label and a space either side (brackets for the
    // current one).
    let cost = |i: usize| width(&labels[i]) + 2;
    let current = views.current.min(n - 1);
    // The widest window from `start` that holds the current tab.
    let mut start = 0;
    loop {
        let mut used = usize::from(start > 0);
        let mut end = start;
        while end < n && used + cost(end) + usize::from(end + 1 < n) <= w {
            used += cost(end);
            end += 1;
        }
        if end > current || start >= current {
            return render(views, &labels, start, end.max(start + 1).min(n), theme);
        }
        start += 1;
    }
}

fn render(views: &Views, labels: &[String], start: usize, end: usize, theme: &Theme) -> Line<'static> {
    let mut spans = Vec::new();
    if start > 0 {
        spans.push(Span::styled("‹", theme.dim()));
    }
    for (i, text) in labels.iter().enumerate().take(end).skip(start) {
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
    if end < labels.len() {
        spans.push(Span::styled("›", theme.dim()));
    }
    Line::from(spans)
}
