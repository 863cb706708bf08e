//! The account overlay: tabs shown from the shared catalog (fetched on
//! first sight, again only on `r`), lists, a template's or a team's record,
//! renames, and the webhook log's filters and pages.
//!
//! The catalog is read through `cx.catalog`; a fetch of one of its parts is
//! sent from here and announced with `Note::CatalogFetch`, a rename with
//! `Note::CatalogRenamed`, so the root keeps the catalog.

mod forms;
mod results;
mod rows;

use crossterm::event::KeyEvent;

#[cfg(test)]
pub(crate) use forms::page_size;
pub use results::{catalog_settled, loaded};
pub use rows::visible_rows;
pub(crate) use rows::{fetch_events, restart_log};

use super::fx::AccountEffect;
use super::state::Open as State;
use super::state::{Account, AccountTab, Remote, Scroll, TemplateDetail};
use crate::tui::keymap::AccountAction;
use crate::tui::shared::catalog::Part;
use crate::tui::shared::{Cx, Note, Out, ToastKind};

type O<'a> = Out<'a, AccountEffect>;

/// `A`: opens on Templates and fetches what was never fetched.
pub fn open(st: &mut State, cx: &Cx, out: &mut O) {
    *st = Some(Account::default());
    ensure_loaded(st, cx, out);
}

/// Asks for a catalog part now; the root notes the request.
fn fetch_part(out: &mut O, part: Part) {
    let id = out.id();
    out.note(Note::CatalogFetch { part, id });
    out.fx(AccountEffect::fetch_part(part, id));
}

/// Fetches what the current tab shows if it was never asked for.
fn ensure_loaded(st: &mut State, cx: &Cx, out: &mut O) {
    let Some(acc) = st.as_ref() else { return };
    let tab = acc.tab;
    if tab == AccountTab::Webhooks {
        if acc.webhooks.events.untouched() {
            fetch_events(st, out);
        }
        return;
    }
    for part in tab.parts() {
        if cx.catalog.untouched(*part) {
            fetch_part(out, *part);
        }
    }
}

/// `r`: fetches the current tab again, and what is opened in it.
fn refresh(st: &mut State, out: &mut O) {
    let Some(acc) = st.as_ref() else { return };
    let tab = acc.tab;
    for part in tab.parts() {
        fetch_part(out, *part);
    }
    match tab {
        AccountTab::Templates => {
            if let Some(uuid) = acc.template.as_ref().map(|t| t.uuid.clone()) {
                fetch_template(st, out, uuid);
            }
        }
        AccountTab::Teams => {
            if let Some((team, _)) = acc.members.team.clone() {
                fetch_team(st, out, team);
            }
        }
        AccountTab::Webhooks => fetch_events(st, out),
        AccountTab::Channels | AccountTab::Plan => {}
    }
}

/// The team's record and its members.
fn fetch_team(st: &mut State, out: &mut O, team: String) {
    let (detail, members) = (out.id(), out.id());
    let Some(acc) = st.as_mut() else { return };
    acc.members.detail.loading = Some(detail);
    acc.members.list.loading = Some(members);
    out.fx(AccountEffect::FetchTeam {
        id: detail,
        uuid: team.clone(),
    });
    out.fx(AccountEffect::FetchMembers { id: members, team });
}

fn fetch_template(st: &mut State, out: &mut O, uuid: String) {
    let id = out.id();
    let Some(acc) = st.as_mut() else { return };
    let Some(t) = acc.template.as_mut().filter(|t| t.uuid == uuid) else {
        return;
    };
    t.remote.loading = Some(id);
    out.fx(AccountEffect::FetchTemplate { id, uuid });
}

pub fn key(st: &mut State, cx: &Cx, out: &mut O, key: KeyEvent) {
    let Some(acc) = st.as_mut() else { return };
    if acc.form.is_some() {
        return forms::key(st, cx, out, key);
    }
    let tab = acc.tab;
    let Some(action) = cx.keys.account_action_for(&key) else {
        return;
    };
    use AccountAction as A;
    match action {
        A::Close => *st = None,
        A::Quit => out.note(Note::Quit),
        A::Tab(n) => switch(st, cx, out, n.min(4)),
        A::NextTab => switch(st, cx, out, (tab.index() + 1) % 5),
        A::PrevTab => switch(st, cx, out, (tab.index() + 4) % 5),
        A::Refresh => refresh(st, out),
        A::Down => move_by(st, cx, |s, len, h| s.move_by(1, len, h)),
        A::Up => move_by(st, cx, |s, len, h| s.move_by(-1, len, h)),
        A::Top => move_by(st, cx, |s, len, h| s.select(0, len, h)),
        A::Bottom => move_by(st, cx, |s, len, h| s.select(usize::MAX, len, h)),
        A::PageDown => move_by(st, cx, |s, len, h| s.page(1, len, h)),
        A::PageUp => move_by(st, cx, |s, len, h| s.page(-1, len, h)),
        A::Rename if matches!(tab, AccountTab::Templates | AccountTab::Channels) => forms::open_rename(st, cx),
        // Enter (or m): a template's record, a team's record and members.
        A::Members if tab == AccountTab::Templates => open_template(st, cx, out),
        A::Members if tab == AccountTab::Teams => open_team(st, cx, out),
        A::Filter if tab == AccountTab::Webhooks => {
            let w = &mut acc.webhooks;
            w.filter = w.filter.next();
            restart_log(st, out);
        }
        A::Kinds if tab == AccountTab::Webhooks => forms::open_event_filter(st),
        A::NextPage if tab == AccountTab::Webhooks => turn_page(st, out, 1),
        A::PrevPage if tab == AccountTab::Webhooks => turn_page(st, out, -1),
        A::Rename | A::Members | A::Filter | A::Kinds | A::NextPage | A::PrevPage => {}
    }
}

pub fn paste(st: &mut State, text: &str) {
    forms::paste(st, text);
}

fn switch(st: &mut State, cx: &Cx, out: &mut O, index: usize) {
    if let Some(acc) = st.as_mut() {
        acc.tab = AccountTab::ALL[index.min(4)];
    }
    ensure_loaded(st, cx, out);
}

fn move_by(st: &mut State, cx: &Cx, how: impl Fn(&mut Scroll, usize, usize)) {
    let Some(acc) = st.as_mut() else { return };
    let tab = acc.tab;
    let height = rows::rows_in(cx, tab);
    let (len, scroll) = acc.list_of(tab, cx.catalog);
    how(scroll, len, height);
}

fn turn_page(st: &mut State, out: &mut O, delta: i64) {
    let Some(acc) = st.as_mut() else { return };
    let w = &mut acc.webhooks;
    let target = w.page as i64 + delta;
    let last = w.pages.unwrap_or(w.page) as i64;
    if target < 1 || target > last {
        let what = if delta > 0 {
            "this is the last page"
        } else {
            "this is the first page"
        };
        out.toast(ToastKind::Info, what);
        return;
    }
    let id = out.id();
    w.events.loading = Some(id);
    let mut query = w.query();
    query.page = Some(target as u32);
    out.fx(AccountEffect::FetchEvents { id, query });
}

/// Enter on a template: its full record from GET /templates/:uuid.
fn open_template(st: &mut State, cx: &Cx, out: &mut O) {
    let Some(acc) = st.as_mut() else { return };
    let Some(uuid) = cx
        .catalog
        .templates
        .data
        .as_ref()
        .and_then(|t| t.get(acc.templates_cursor.selected))
        .map(|t| t.uuid.clone())
    else {
        return;
    };
    acc.template = Some(TemplateDetail {
        uuid: uuid.clone(),
        remote: Remote::default(),
    });
    fetch_template(st, out, uuid);
}

/// Enter or `m` on a team: its record and members.
fn open_team(st: &mut State, cx: &Cx, out: &mut O) {
    let Some(acc) = st.as_mut() else { return };
    let Some(team) = cx
        .catalog
        .teams
        .data
        .as_ref()
        .and_then(|t| t.get(acc.teams_cursor.selected))
        .cloned()
    else {
        return;
    };
    acc.members.team = Some((team.uuid.clone(), team.name.clone()));
    acc.members.detail = Remote::default();
    acc.members.list = Remote::default();
    fetch_team(st, out, team.uuid);
}
