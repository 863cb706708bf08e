//! The account overlay: a tab bar, the tab's list (only the rows on screen
//! are formatted), the selected row's details, and a footer of keys.

use chrono::{DateTime, Utc};

use crate::tui::zone::Zone;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::{clean, spinner};
use crate::tui::model::Model;
use crate::tui::model::account::{Account, AccountAreas, AccountForm, AccountTab, Remote, Scroll, account_areas};
use crate::tui::text::{clean_text, width};
use crate::tui::theme::Theme;
use crate::tui::update::account::footer_keys;

/// Server text for a wrapped paragraph: inert, newlines kept.
fn block_text(s: &str) -> String {
    clean_text(s)
}

fn local(t: Option<DateTime<Utc>>, tz: Option<Zone>) -> String {
    super::stamp(t, tz).unwrap_or_default()
}

pub fn render(model: &Model, frame: &mut Frame, theme: &Theme) {
    let Some(acc) = model.account.as_ref() else { return };
    let full = frame.area();
    let bottom = if model.status.current().is_some() { 2 } else { 1 };
    let area = Rect::new(full.x, full.y, full.width, full.height.saturating_sub(bottom));
    let a = account_areas(area, acc.tab);
    frame.render_widget(Clear, area);
    let block = Block::bordered()
        .title(" Account ")
        .border_style(theme.border_focused());
    frame.render_widget(block, area);
    tabs(model, acc, frame, &a, theme);
    match acc.tab {
        AccountTab::Templates => lists::templates(model, acc, frame, &a, theme),
        AccountTab::Channels => lists::channels(model, acc, frame, &a, theme),
        AccountTab::Teams => teams::teams(model, acc, frame, &a, theme),
        AccountTab::Plan => teams::plan(model, acc, frame, &a, theme),
        AccountTab::Webhooks => webhooks::webhooks(model, acc, frame, &a, theme),
    }
    footer(acc, frame, a.footer, theme);
    let form = match &acc.form {
        Some(AccountForm::Rename(r)) => Some(&r.form),
        Some(AccountForm::EventFilter(f)) => Some(f),
        None => None,
    };
    if let Some(form) = form {
        form.render(frame, full, theme);
        if let Some(pos) = form.cursor_position(full) {
            frame.set_cursor_position(pos);
        }
    }
}

fn tabs(model: &Model, acc: &Account, frame: &mut Frame, a: &AccountAreas, theme: &Theme) {
    let mut spans = Vec::new();
    for (i, t) in AccountTab::ALL.iter().enumerate() {
        if *t == acc.tab {
            spans.push(Span::styled(format!("[{} {}]", i + 1, t.title()), theme.selected()));
        } else {
            spans.push(Span::styled(format!(" {} {} ", i + 1, t.title()), theme.dim()));
        }
        spans.push(Span::raw(" "));
    }
    let mut right = String::new();
    if acc.tab == AccountTab::Webhooks {
        let w = &acc.webhooks;
        let pages = w.pages.map_or("?".to_string(), |p| p.to_string());
        let kinds = match w.subscriptions.len() {
            0 => String::new(),
            1 => format!(" · {}", clean(&w.subscriptions[0])),
            n => format!(" · {n} kinds"),
        };
        let size = w.items.map_or(String::new(), |n| format!(" · {n}/page"));
        right = format!("status: {}{kinds}{size} │ page {}/{} ", w.filter.label(), w.page, pages);
    }
    if loading(model, acc) {
        right.push_str(spinner(model.frame));
        right.push(' ');
    }
    let left_w = spans.iter().map(|s| width(&s.content)).sum::<usize>();
    let room = (a.tabs.width as usize).saturating_sub(left_w);
    if width(&right) > room {
        // Narrow: only the current tab's name, then the rest.
        spans.clear();
        spans.push(Span::styled(
            format!("[{}/5 {}]", acc.tab.index() + 1, acc.tab.title()),
            theme.selected(),
        ));
        spans.push(Span::raw(" "));
    }
    let left_w = spans.iter().map(|s| width(&s.content)).sum::<usize>();
    let pad = (a.tabs.width as usize).saturating_sub(left_w + width(&right));
    spans.push(Span::raw(" ".repeat(pad)));
    spans.push(Span::styled(right, theme.accent()));
    frame.render_widget(Paragraph::new(Line::from(spans)), a.tabs);
}

fn loading(model: &Model, acc: &Account) -> bool {
    let own = match acc.tab {
        AccountTab::Templates => acc.template.as_ref().is_some_and(|t| t.remote.loading.is_some()),
        AccountTab::Teams => acc.members.list.loading.is_some() || acc.members.detail.loading.is_some(),
        AccountTab::Webhooks => acc.webhooks.events.loading.is_some(),
        AccountTab::Channels | AccountTab::Plan => false,
    };
    own || acc.tab.parts().iter().any(|p| model.catalog.loading(*p))
}

fn footer(acc: &Account, frame: &mut Frame, area: Rect, theme: &Theme) {
    let mut spans = Vec::new();
    for (k, what) in footer_keys(acc.tab) {
        spans.push(Span::styled(format!("{k} "), theme.accent()));
        spans.push(Span::styled(format!("{what}  "), theme.dim()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// Loading, error or empty states in `area`; true when the list itself
/// should be drawn (there is data). An error with data shows on the last
/// line of `area`, which it takes.
fn state<T>(model: &Model, remote: &Remote<Vec<T>>, frame: &mut Frame, area: &mut Rect, theme: &Theme) -> bool {
    match (&remote.data, &remote.error) {
        (None, Some(e)) => {
            let p = Paragraph::new(Line::styled(format!("✗ {}", clean(e)), theme.error())).wrap(Wrap { trim: false });
            frame.render_widget(p, *area);
            false
        }
        (None, None) => {
            let s = if remote.loading.is_some() {
                format!("{} loading…", spinner(model.frame))
            } else {
                String::new()
            };
            frame.render_widget(Paragraph::new(Line::styled(s, theme.dim())), *area);
            false
        }
        (Some(items), e) => {
            if let Some(e) = e
                && area.height > 1
            {
                let last = Rect::new(area.x, area.y + area.height - 1, area.width, 1);
                frame.render_widget(
                    Paragraph::new(Line::styled(format!("✗ {}", clean(e)), theme.error())),
                    last,
                );
                area.height -= 1;
            }
            if items.is_empty() {
                frame.render_widget(Paragraph::new(Line::styled("(none)", theme.dim())), *area);
                return false;
            }
            true
        }
    }
}

/// Header plus the visible rows of a list.
fn table<T>(
    frame: &mut Frame,
    area: Rect,
    cols: &[columns::Col],
    items: &[T],
    cursor: Option<Scroll>,
    theme: &Theme,
    cells: impl Fn(&T) -> Vec<String>,
) {
    let w = columns::widths(cols, (area.width as usize).saturating_sub(2));
    let headers: Vec<String> = cols.iter().map(|c| c.header.to_string()).collect();
    let mut lines = vec![Line::styled(
        format!("  {}", columns::row_text(&headers, &w)),
        theme.dim(),
    )];
    let height = area.height.saturating_sub(1) as usize;
    let c = cursor.unwrap_or_default();
    let shown = c.visible(items.len(), height);
    for (i, item) in items.iter().enumerate().skip(shown.start).take(shown.len()) {
        let text = columns::row_text(&cells(item), &w);
        if cursor.is_some() && i == c.selected.min(items.len().saturating_sub(1)) {
            lines.push(Line::styled(format!("▶ {text}"), theme.selected()));
        } else {
            lines.push(Line::raw(format!("  {text}")));
        }
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// A detail area: a top rule with a title, then wrapped lines.
fn detail(frame: &mut Frame, area: Rect, title: String, lines: Vec<Line<'static>>, theme: &Theme) {
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.border())
        .title(Span::styled(format!(" {title} "), theme.accent()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

fn text_lines(s: &str, style: Style) -> Vec<Line<'static>> {
    block_text(s)
        .split('\n')
        .map(|l| Line::styled(l.to_string(), style))
        .collect()
}

mod columns;
mod lists;
mod teams;
mod webhooks;

#[cfg(test)]
mod tests;
