//! The account overlay: a tab bar, the tab's list (only the rows on screen
//! are formatted), the selected row's details, and a footer of keys.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::state::Open as State;
use super::state::{Account, AccountAreas, AccountForm, AccountTab, account_areas};
use crate::text::width;
use crate::tui::keymap::{AccountAction, Keymap};
use crate::tui::shared::ViewCx;
use crate::tui::shared::catalog::Catalog;
use crate::tui::widgets::clean;
use parts::V;

/// The overlay over `area` (the screen above the status line); its forms
/// over the whole frame.
pub fn render(st: &State, vcx: &ViewCx, frame: &mut Frame, area: Rect, catalog: &Catalog) {
    let Some(acc) = st.as_ref() else { return };
    let v = &V { vcx, catalog };
    let theme = vcx.theme;
    let full = frame.area();
    let a = account_areas(area, acc.tab);
    frame.render_widget(Clear, area);
    let block = Block::bordered()
        .title(" Account ")
        .border_style(theme.border_focused());
    frame.render_widget(block, area);
    tabs(v, acc, frame, &a);
    match acc.tab {
        AccountTab::Templates => lists::templates(v, acc, frame, &a, theme),
        AccountTab::Channels => lists::channels(v, acc, frame, &a, theme),
        AccountTab::Teams => teams::teams(v, acc, frame, &a, theme),
        AccountTab::Plan => teams::plan(v, acc, frame, &a, theme),
        AccountTab::Webhooks => webhooks::webhooks(v, acc, frame, &a, theme),
    }
    footer(v, acc, frame, a.footer);
    let form = match &acc.form {
        Some(AccountForm::Rename(r)) => Some(&r.form),
        Some(AccountForm::EventFilter(f)) => Some(f),
        None => None,
    };
    if let Some(form) = form {
        form.render(frame, full, theme, vcx.keys);
        if let Some(pos) = form.cursor_position(full, vcx.keys) {
            frame.set_cursor_position(pos);
        }
    }
}

fn tabs(v: &V, acc: &Account, frame: &mut Frame, a: &AccountAreas) {
    let theme = v.vcx.theme;
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
    if loading(v, acc) {
        right.push_str(v.spinner());
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

fn loading(v: &V, acc: &Account) -> bool {
    let own = match acc.tab {
        AccountTab::Templates => acc.template.as_ref().is_some_and(|t| t.remote.loading.is_some()),
        AccountTab::Teams => acc.members.list.loading.is_some() || acc.members.detail.loading.is_some(),
        AccountTab::Webhooks => acc.webhooks.events.loading.is_some(),
        AccountTab::Channels | AccountTab::Plan => false,
    };
    own || acc.tab.parts().iter().any(|p| v.catalog.loading(*p))
}

fn footer(v: &V, acc: &Account, frame: &mut Frame, area: Rect) {
    let theme = v.vcx.theme;
    let mut spans = Vec::new();
    for (k, what) in account_footer(v.vcx.keys, acc.tab) {
        spans.push(Span::styled(format!("{k} "), theme.accent()));
        spans.push(Span::styled(format!("{what}  "), theme.dim()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The overlay's footer for `tab`: (keys, what) from the one key table,
/// so rebound keys show as they are.
fn account_footer(map: &Keymap, tab: AccountTab) -> Vec<(String, &'static str)> {
    use AccountAction as A;
    let first = |a: A| -> String {
        let label = map
            .account_rows()
            .iter()
            .find(|r| r.action == a)
            .map_or("", |r| r.label.as_str());
        label.split(' ').next().unwrap_or("").to_string()
    };
    // One action shows all its keys; a group shows the first key of each.
    let join = |actions: &[A]| match actions {
        [one] => map
            .account_rows()
            .iter()
            .find(|r| r.action == *one)
            .map_or(String::new(), |r| r.label.clone()),
        many => many.iter().map(|a| first(*a)).collect::<Vec<_>>().join(" "),
    };
    let mut out = match tab {
        AccountTab::Templates => vec![(first(A::Members), "details"), (join(&[A::Rename]), "rename")],
        AccountTab::Channels => vec![(join(&[A::Rename]), "rename")],
        AccountTab::Teams => vec![(join(&[A::Members]), "team")],
        AccountTab::Plan => vec![],
        AccountTab::Webhooks => vec![
            (join(&[A::Filter]), "status"),
            (join(&[A::Kinds]), "kinds"),
            (join(&[A::NextPage, A::PrevPage]), "page"),
        ],
    };
    out.extend([
        (format!("{} 1-5", first(A::NextTab)), "tab"),
        (join(&[A::Down, A::Up, A::Top, A::Bottom]), "move"),
        (join(&[A::Refresh]), "refresh"),
        (join(&[A::Close]), "close"),
    ]);
    out
}

mod columns;
mod lists;
mod parts;
mod teams;
mod webhooks;
