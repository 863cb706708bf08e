//! The act slice's overlays: the question before a large action on many,
//! the account of one that did not all go through, and the history (`U`):
//! the agent's last actions, newest first, with when, what, on how many
//! contacts, and whether each can still be undone (and if not, why, for
//! the selected one).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::run::{Confirm, Summary};
use crate::text::truncate;
use crate::tui::shared::ViewCx;
use crate::tui::theme::Theme;
use crate::tui::widgets::centered;
use crate::tui::widgets::{clean, fit};

use super::history::{KEEP, State};
use super::state::Act;

/// "Close 120 conversations?" with `y` and `n`.
pub fn render_confirm(c: &Confirm, vcx: &ViewCx, frame: &mut Frame, area: Rect) {
    let theme = vcx.theme;
    let w = area.width.clamp(20, 64);
    let text_w = w.saturating_sub(4) as usize;
    // Wrapped, at most three lines: the question ends with what it asks.
    let mut lines: Vec<Line> = crate::tui::widgets::wrap(&clean(&c.question), text_w)
        .into_iter()
        .take(3)
        .map(Line::raw)
        .collect();
    lines.extend([
        Line::raw(""),
        Line::from(vec![
            Span::styled("y", theme.accent()),
            Span::raw(" go ahead   "),
            Span::styled("n Esc", theme.accent()),
            Span::raw(" do nothing"),
        ]),
    ]);
    // One contact's write asked about (a colleague's change or reply).
    let title = if c.single.is_some() {
        " Ask first "
    } else {
        " Act on many? "
    };
    boxed(frame, area, w, lines, title, theme);
}

/// Counts, the failures by name with why (scrolled), and what next.
pub fn render_summary(s: &Summary, vcx: &ViewCx, frame: &mut Frame, area: Rect) {
    let theme = vcx.theme;
    let w = area.width.saturating_sub(4).clamp(20, 90);
    let text_w = w.saturating_sub(4) as usize;
    let room = s.room(area.height);
    let mut lines = vec![Line::raw(truncate(&clean(&s.counts), text_w).into_owned())];
    if !s.failures.is_empty() {
        lines.push(Line::styled(truncate(&s.heading, text_w).into_owned(), theme.error()));
    }
    let start = s.scroll.min(s.max_scroll(area.height)) as usize;
    let shown = &s.failures[start..(start + room).min(s.failures.len())];
    for f in shown {
        lines.push(Line::raw(truncate(&format!("✗ {}", clean(f)), text_w).into_owned()));
    }
    if let Some(h) = &s.hint {
        lines.push(Line::styled(truncate(&clean(h), text_w).into_owned(), theme.accent()));
    }
    let more = s.failures.len() > room;
    let keys = if more {
        format!(
            "j k scroll ({}-{} of {})   Esc close",
            start + 1,
            start + shown.len(),
            s.failures.len()
        )
    } else {
        "Esc close".to_string()
    };
    lines.push(Line::styled(truncate(&keys, text_w).into_owned(), theme.dim()));
    let title = format!(" {} ", clean(&s.title));
    boxed(frame, area, w, lines, &title, theme);
}

fn boxed(frame: &mut Frame, area: Rect, w: u16, lines: Vec<Line>, title: &str, theme: &Theme) {
    let r = centered(area, w, lines.len() as u16 + 2);
    frame.render_widget(Clear, r);
    let block = Block::bordered()
        .title(title.to_string())
        .border_style(theme.border_focused());
    let inner = block.inner(r);
    frame.render_widget(block, r);
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Widest the box gets.
const MAX_W: u16 = 100;
/// The time, count and state columns, with their gaps.
const TIME_W: usize = 8;
const COUNT_W: usize = 8;
const STATE_W: usize = 15;

/// The history overlay, `selected` its cursor.
pub fn render_history(st: &Act, vcx: &ViewCx, frame: &mut Frame, area: Rect, selected: usize) {
    let theme = vcx.theme;
    let entries = &st.undo.entries;
    let rows = entries.len().max(1) as u16;
    // Rows, a header, the selected entry's detail line, and the border.
    let h = rows.saturating_add(4).min(area.height.saturating_sub(2)).max(5);
    let w = MAX_W.min(area.width.saturating_sub(4));
    let r = centered(area, w, h);
    frame.render_widget(Clear, r);
    let block = Block::bordered()
        .title(format!(" Last {KEEP} actions (Enter/u undoes · Esc closes) "))
        .border_style(theme.border_focused());
    let inner = block.inner(r);
    frame.render_widget(block, r);
    let [head, list, foot] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(1), Constraint::Length(1)]).areas(inner);
    let iw = inner.width as usize;
    let what_w = iw.saturating_sub(1 + TIME_W + 2 + 2 + COUNT_W + 2 + STATE_W);
    // `what` and a state's reason carry contact and team names: cleaned,
    // and `what` padded by width; the state is last, cut by the pane.
    let cols = |time: &str, what: &str, count: &str, state: &str| -> String {
        format!(
            " {time:<TIME_W$}  {}  {count:>COUNT_W$}  {}",
            fit(&clean(what), what_w),
            clean(state),
        )
    };
    frame.render_widget(
        Paragraph::new(Line::styled(cols("when", "what", "contacts", "undo"), theme.dim())),
        head,
    );
    if entries.is_empty() {
        let text = " nothing yet: closes, assignments, tags, notes, teams and bots show here";
        frame.render_widget(
            Paragraph::new(Line::styled(truncate(text, iw).into_owned(), theme.dim())),
            list,
        );
        return;
    }
    let visible = list.height.max(1) as usize;
    let selected = selected.min(entries.len() - 1);
    let offset = selected.saturating_sub(visible - 1);
    let mut lines = Vec::new();
    let mut detail = String::new();
    for (i, e) in entries.iter().enumerate().skip(offset).take(visible) {
        let state = e.state(vcx.contacts, st.undo.undoing == Some(e.id));
        let time = crate::tui::zone::local(e.at, vcx.session.tz)
            .format("%H:%M:%S")
            .to_string();
        let line = cols(&time, &e.what, &e.contacts().to_string(), &state.label());
        let style = match (&state, i == selected) {
            (_, true) => theme.selected(),
            (State::Undoable(_), _) => theme.normal(),
            _ => theme.dim(),
        };
        lines.push(Line::from(Span::styled(line, style)));
        if i == selected {
            detail = match (&state, state.refusal()) {
                (State::Undoable(n), _) => {
                    let (cannot, why) = e.cannot();
                    let mut d = format!(" Enter undoes it on {n} contact{}", if *n == 1 { "" } else { "s" });
                    if let Some(why) = why.filter(|_| cannot > 0) {
                        d.push_str(&format!(" ({cannot} cannot be: {})", clean(why)));
                    }
                    d
                }
                (_, Some(why)) => format!(" {}", clean(&why)),
                _ => String::new(),
            };
        }
    }
    frame.render_widget(Paragraph::new(lines), list);
    frame.render_widget(
        Paragraph::new(Line::styled(truncate(&detail, iw).into_owned(), theme.accent())),
        foot,
    );
}
