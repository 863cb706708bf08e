//! The account overlay: tabs shown from the shared catalog (fetched on
//! first sight, again only on `r`), lists, a template's or a team's record,
//! renames, and the webhook log's filters and pages.

mod forms;
mod results;
mod rows;

#[cfg(test)]
mod tests;

use crossterm::event::KeyEvent;

pub(crate) use results::loaded;
pub use rows::visible_rows;
pub(crate) use rows::{fetch_events, restart_log};

use super::catalog;
use crate::tui::effect::Effect;
use crate::tui::effect::account::AccountEffect;
use crate::tui::keymap::AccountAction;
use crate::tui::model::Model;
use crate::tui::model::account::{Account, AccountTab, Remote, Scroll, TemplateDetail};

/// `A`: opens on Templates and fetches what was never fetched.
pub(crate) fn open(model: &mut Model, fx: &mut Vec<Effect>) {
    model.account = Some(Account::default());
    ensure_loaded(model, fx);
}

/// Fetches what the current tab shows if it was never asked for.
fn ensure_loaded(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(acc) = model.account.as_ref() else { return };
    let tab = acc.tab;
    if tab == AccountTab::Webhooks {
        if acc.webhooks.events.untouched() {
            fetch_events(model, fx);
        }
        return;
    }
    for part in tab.parts() {
        catalog::ensure(model, *part, fx);
    }
}

/// `r`: fetches the current tab again, and what is opened in it.
fn refresh(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(acc) = model.account.as_ref() else { return };
    let tab = acc.tab;
    for part in tab.parts() {
        catalog::fetch(model, *part, fx);
    }
    let Some(acc) = model.account.as_ref() else { return };
    match tab {
        AccountTab::Templates => {
            if let Some(uuid) = acc.template.as_ref().map(|t| t.uuid.clone()) {
                fetch_template(model, uuid, fx);
            }
        }
        AccountTab::Teams => {
            if let Some((team, _)) = acc.members.team.clone() {
                fetch_team(model, team, fx);
            }
        }
        AccountTab::Webhooks => fetch_events(model, fx),
        AccountTab::Channels | AccountTab::Plan => {}
    }
}

/// The team's record and its members.
fn fetch_team(model: &mut Model, team: String, fx: &mut Vec<Effect>) {
    let (detail, members) = (model.next_id(), model.next_id());
    let Some(acc) = model.account.as_mut() else { return };
    acc.members.detail.loading = Some(detail);
    acc.members.list.loading = Some(members);
    fx.push(Effect::Account(AccountEffect::FetchTeam {
        id: detail,
        uuid: team.clone(),
    }));
    fx.push(Effect::Account(AccountEffect::FetchMembers { id: members, team }));
}

fn fetch_template(model: &mut Model, uuid: String, fx: &mut Vec<Effect>) {
    let id = model.next_id();
    let Some(acc) = model.account.as_mut() else { return };
    let Some(t) = acc.template.as_mut().filter(|t| t.uuid == uuid) else {
        return;
    };
    t.remote.loading = Some(id);
    fx.push(Effect::Account(AccountEffect::FetchTemplate { id, uuid }));
}

pub(crate) fn key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) {
    let Some(acc) = model.account.as_mut() else { return };
    if acc.form.is_some() {
        return forms::key(model, key, fx);
    }
    let tab = acc.tab;
    let Some(action) = model.keys.account_action_for(&key) else {
        return;
    };
    use AccountAction as A;
    match action {
        A::Close => model.account = None,
        A::Quit => model.quit = true,
        A::Tab(n) => switch(model, n.min(4), fx),
        A::NextTab => switch(model, (tab.index() + 1) % 5, fx),
        A::PrevTab => switch(model, (tab.index() + 4) % 5, fx),
        A::Refresh => refresh(model, fx),
        A::Down => move_by(model, |s, len, h| s.move_by(1, len, h)),
        A::Up => move_by(model, |s, len, h| s.move_by(-1, len, h)),
        A::Top => move_by(model, |s, len, h| s.select(0, len, h)),
        A::Bottom => move_by(model, |s, len, h| s.select(usize::MAX, len, h)),
        A::PageDown => move_by(model, |s, len, h| s.page(1, len, h)),
        A::PageUp => move_by(model, |s, len, h| s.page(-1, len, h)),
        A::Rename if matches!(tab, AccountTab::Templates | AccountTab::Channels) => forms::open_rename(model),
        // Enter (or m): a template's record, a team's record and members.
        A::Members if tab == AccountTab::Templates => open_template(model, fx),
        A::Members if tab == AccountTab::Teams => open_team(model, fx),
        A::Filter if tab == AccountTab::Webhooks => {
            let w = &mut acc.webhooks;
            w.filter = w.filter.next();
            restart_log(model, fx);
        }
        A::Kinds if tab == AccountTab::Webhooks => forms::open_event_filter(model),
        A::NextPage if tab == AccountTab::Webhooks => turn_page(model, 1, fx),
        A::PrevPage if tab == AccountTab::Webhooks => turn_page(model, -1, fx),
        A::Rename | A::Members | A::Filter | A::Kinds | A::NextPage | A::PrevPage => {}
    }
}

pub(crate) fn paste(model: &mut Model, text: &str) {
    forms::paste(model, text);
}

fn switch(model: &mut Model, index: usize, fx: &mut Vec<Effect>) {
    if let Some(acc) = model.account.as_mut() {
        acc.tab = AccountTab::ALL[index.min(4)];
    }
    ensure_loaded(model, fx);
}

fn move_by(model: &mut Model, how: impl Fn(&mut Scroll, usize, usize)) {
    let Some(tab) = model.account.as_ref().map(|a| a.tab) else {
        return;
    };
    let height = visible_rows(model, tab);
    let Some(acc) = model.account.as_mut() else { return };
    let (len, scroll) = acc.list_of(tab, &model.catalog);
    how(scroll, len, height);
}

fn turn_page(model: &mut Model, delta: i64, fx: &mut Vec<Effect>) {
    let Some(acc) = model.account.as_mut() else { return };
    let w = &mut acc.webhooks;
    let target = w.page as i64 + delta;
    let last = w.pages.unwrap_or(w.page) as i64;
    if target < 1 || target > last {
        let now = model.now;
        let what = if delta > 0 {
            "this is the last page"
        } else {
            "this is the first page"
        };
        model.status.push(crate::tui::model::ToastKind::Info, what, now);
        return;
    }
    let id = model.next_id();
    let Some(acc) = model.account.as_mut() else { return };
    let w = &mut acc.webhooks;
    w.events.loading = Some(id);
    let mut query = w.query();
    query.page = Some(target as u32);
    fx.push(Effect::Account(AccountEffect::FetchEvents { id, query }));
}

/// Enter on a template: its full record from GET /templates/:uuid.
fn open_template(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(acc) = model.account.as_mut() else { return };
    let Some(uuid) = model
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
    fetch_template(model, uuid, fx);
}

/// Enter or `m` on a team: its record and members.
fn open_team(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(acc) = model.account.as_mut() else { return };
    let Some(team) = model
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
    fetch_team(model, team.uuid, fx);
}
