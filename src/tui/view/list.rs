//! The contact list. Only the rows on screen are formatted.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::clean;
use super::{fit, pane_block, relative, spinner};
use crate::tui::model::contact_list::Row;
use crate::tui::model::{Model, Pane};
use crate::tui::text::truncate;
use crate::tui::theme::Theme;

/// Column widths for an inner width.
struct Cols {
    name: usize,
    source: usize,
    assignee: usize,
    tags: usize,
}

fn cols(w: usize) -> Cols {
    // Fixed: marker 2, spaces, time 4, state 7, bot 1.
    let mut rest = w.saturating_sub(17);
    let mut c = Cols {
        name: rest.min(14),
        source: 0,
        assignee: 0,
        tags: 0,
    };
    rest -= c.name;
    for (want, slot) in [(9, 0), (12, 1), (10, 2)] {
        if rest > want {
            rest -= want + 1;
            match slot {
                0 => c.source = want,
                1 => c.assignee = want,
                _ => c.tags = want,
            }
        }
    }
    let more = rest.min(10);
    c.name += more;
    rest -= more;
    if c.tags > 0 {
        c.tags += rest;
    } else {
        c.name += rest;
    }
    c
}

pub fn render(model: &Model, frame: &mut Frame, area: Rect, theme: &Theme) {
    let list = &model.list;
    let mut title = format!("Contacts {}", list.store.len());
    if list.paging.loading.is_some() || list.paging.refreshing.is_some() {
        title.push(' ');
        title.push_str(spinner(model.frame));
    } else if !list.paging.exhausted && !list.store.is_empty() {
        title.push('+');
    }
    if let Some(s) = &list.view.search
        && !s.query.is_empty()
    {
        title = if s.active() {
            format!("{title} · /{} {} found", clean(&s.matched), s.matches.len())
        } else {
            format!("{title} · /{} …", clean(&s.query))
        };
        if s.active() && s.running {
            title.push_str(" …");
        }
    }
    let block = pane_block(model, Pane::List, title, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let w = inner.width as usize;
    let c = cols(w);
    let mut lines = Vec::with_capacity(inner.height as usize);
    let mut header = format!("   {} ", fit("Name", c.name));
    if c.source > 0 {
        header.push_str(&fit("Source", c.source));
        header.push(' ');
    }
    header.push_str("Last State  ");
    if c.assignee > 0 {
        header.push_str(&fit("Assignee", c.assignee));
        header.push(' ');
    }
    if c.tags > 0 {
        header.push_str(&fit("Tags", c.tags));
    }
    lines.push(Line::styled(truncate(&header, w).into_owned(), theme.dim()));
    let rows = inner.height.saturating_sub(1) as usize;
    if list.store.is_empty() {
        let msg = match (&list.error, list.paging.loading.is_some()) {
            (Some(e), _) => format!("could not load contacts: {}", clean(e)),
            (None, true) => format!("{} loading contacts…", spinner(model.frame)),
            (None, false) => "no contacts match".to_string(),
        };
        lines.push(Line::styled(msg, theme.dim()));
    }
    // The window may have shrunk since `update` placed it (a toast line).
    let (selected, len) = (list.view.selected, list.visible_len());
    let mut offset = list.view.offset.min(len.saturating_sub(1));
    if selected >= offset + rows.max(1) {
        offset = selected + 1 - rows.max(1);
    }
    for r in offset..(offset + rows).min(len) {
        let Some(contact) = list.row(r) else { break };
        lines.push(row(model, contact, r == selected, &c, theme));
    }
    if let Some(s) = &list.view.search
        && s.editing
    {
        while lines.len() + 1 < inner.height as usize {
            lines.push(Line::raw(""));
        }
        lines.truncate(inner.height.saturating_sub(1) as usize);
        lines.push(Line::styled(format!("/{}▏", clean(&s.query)), theme.accent()));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

fn row(model: &Model, c: &Row, selected: bool, cols: &Cols, theme: &Theme) -> Line<'static> {
    let list = &model.list;
    // Selection also shows as `▸`, so it reads without reverse video too.
    let cursor = Span::raw(if selected { "▸" } else { " " });
    let marker = if list.pending.contains_key(&c.uuid) {
        Span::styled(format!("{} ", spinner(model.frame)), theme.warning())
    } else if c.has_new() {
        Span::styled("● ", theme.unread())
    } else {
        Span::raw("  ")
    };
    let mut spans = vec![
        cursor,
        marker,
        Span::raw(fit(&clean(c.label()), cols.name)),
        Span::raw(" "),
    ];
    if cols.source > 0 {
        spans.push(Span::styled(fit(&clean(&c.source), cols.source), theme.dim()));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled(
        fit(&relative(model.now, c.last_activity()), 4),
        theme.dim(),
    ));
    spans.push(Span::raw(" "));
    spans.push(if c.is_open() {
        Span::styled("open   ", theme.success())
    } else {
        Span::styled("closed ", theme.dim())
    });
    if cols.assignee > 0 {
        let who = c
            .assigned_user
            .as_deref()
            .map(|a| a.split('@').next().unwrap_or(a))
            .unwrap_or("—");
        spans.push(Span::raw(fit(&clean(who), cols.assignee)));
        spans.push(Span::raw(" "));
    }
    if cols.tags > 0 {
        let tags = c
            .tags
            .iter()
            .map(|t| format!("#{}", clean(t)))
            .collect::<Vec<_>>()
            .join(" ");
        spans.push(Span::styled(fit(&tags, cols.tags), theme.accent()));
    }
    spans.push(Span::raw(if list.bots.get(&*c.uuid) == Some(&true) {
        "⚙"
    } else {
        " "
    }));
    let line = Line::from(spans);
    if selected { line.style(theme.selected()) } else { line }
}
