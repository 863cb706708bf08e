//! The account overlay: tabs fetched on first sight, lists, renames, the
//! webhook log's filter and pages.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use crate::tui::effect::Effect;
use crate::tui::effect::account::AccountEffect;
use crate::tui::form::{FieldKind, FieldSpec, Form, FormOutcome, FormValue, TextCheck};
pub use crate::tui::keymap::account_footer as footer_keys;
use crate::tui::keymap::{self, AccountAction};
use crate::tui::model::account::{Account, AccountTab, Cursor, Rename, RenameTarget, account_areas};
use crate::tui::model::{Model, ToastKind};
use crate::tui::msg::account::{AccountMsg, Renamed};

/// `A`: opens on Templates and fetches it.
pub(crate) fn open(model: &mut Model, fx: &mut Vec<Effect>) {
    model.account = Some(Account::default());
    ensure_loaded(model, fx);
}

/// Fetches the current tab if it was never asked for.
fn ensure_loaded(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(acc) = model.account.as_ref() else { return };
    let untouched = match acc.tab {
        AccountTab::Templates => acc.templates.untouched(),
        AccountTab::Channels => acc.channels.untouched(),
        AccountTab::Teams => acc.teams.untouched(),
        AccountTab::Plan => acc.plan.untouched() || acc.funnels.untouched(),
        AccountTab::Webhooks => acc.webhooks.events.untouched(),
    };
    if untouched {
        fetch(model, fx);
    }
}

/// (Re)fetches the current tab.
fn fetch(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(tab) = model.account.as_ref().map(|a| a.tab) else {
        return;
    };
    let id = model.next_id();
    let Some(acc) = model.account.as_mut() else { return };
    let effect = match tab {
        AccountTab::Templates => {
            acc.templates.loading = Some(id);
            AccountEffect::FetchTemplates { id }
        }
        AccountTab::Channels => {
            acc.channels.loading = Some(id);
            AccountEffect::FetchChannels { id }
        }
        AccountTab::Teams => {
            acc.teams.loading = Some(id);
            fx.push(Effect::Account(AccountEffect::FetchTeams { id }));
            if let Some((team, _)) = acc.members.team.clone() {
                fetch_members(model, team, fx);
            }
            return;
        }
        AccountTab::Plan => {
            acc.plan.loading = Some(id);
            fx.push(Effect::Account(AccountEffect::FetchPlan { id }));
            let id = model.next_id();
            if let Some(acc) = model.account.as_mut() {
                acc.funnels.loading = Some(id);
            }
            AccountEffect::FetchFunnels { id }
        }
        AccountTab::Webhooks => {
            acc.webhooks.events.loading = Some(id);
            AccountEffect::FetchEvents {
                id,
                query: acc.webhooks.query(),
            }
        }
    };
    fx.push(Effect::Account(effect));
}

fn fetch_members(model: &mut Model, team: String, fx: &mut Vec<Effect>) {
    let id = model.next_id();
    let Some(acc) = model.account.as_mut() else { return };
    acc.members.list.loading = Some(id);
    fx.push(Effect::Account(AccountEffect::FetchMembers { id, team }));
}

/// Rows of the current tab's list that fit on screen.
pub fn visible_rows(model: &Model, tab: AccountTab) -> usize {
    let bottom = if model.status.current().is_some() { 2 } else { 1 };
    let area = Rect::new(0, 0, model.width, model.height.saturating_sub(bottom));
    let a = account_areas(area, tab);
    let rows = match tab {
        // A title line and a header row above the funnels.
        AccountTab::Plan => a.detail.height.saturating_sub(2),
        _ => a.list.height.saturating_sub(1),
    };
    rows.max(1) as usize
}

pub(crate) fn key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) {
    let Some(acc) = model.account.as_mut() else { return };
    if let Some(rename) = acc.rename.as_mut() {
        match rename.form.handle_key(key) {
            FormOutcome::Pending => {}
            FormOutcome::Cancelled => acc.rename = None,
            FormOutcome::Submitted => submit_rename(model, fx),
        }
        return;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let tab = acc.tab;
    if let (KeyCode::Char(c @ '1'..='5'), false) = (key.code, ctrl) {
        return switch(model, c as usize - '1' as usize, fx);
    }
    if ctrl && key.code == KeyCode::Char('c') {
        model.quit = true;
        return;
    }
    let Some(action) = keymap::active().account_action_for(&key) else {
        return;
    };
    use AccountAction as A;
    match action {
        A::Close => model.account = None,
        A::NextTab => switch(model, (tab.index() + 1) % 5, fx),
        A::PrevTab => switch(model, (tab.index() + 4) % 5, fx),
        A::Refresh => fetch(model, fx),
        A::Down => move_by(model, |c, _, _| c.selected + 1),
        A::Up => move_by(model, |c, _, _| c.selected.saturating_sub(1)),
        A::Top => move_by(model, |_, _, _| 0),
        A::Bottom => move_by(model, |_, len, _| len.saturating_sub(1)),
        A::PageDown => move_by(model, |c, _, h| c.selected + h),
        A::PageUp => move_by(model, |c, _, h| c.selected.saturating_sub(h)),
        A::Rename if matches!(tab, AccountTab::Templates | AccountTab::Channels) => open_rename(model),
        A::Members if tab == AccountTab::Teams => show_members(model, fx),
        A::Filter if tab == AccountTab::Webhooks => {
            let w = &mut acc.webhooks;
            w.filter = w.filter.next();
            w.page = 1;
            w.pages = None;
            w.events.data = None;
            w.events.error = None;
            w.cursor = Cursor::default();
            fetch(model, fx);
        }
        A::NextPage if tab == AccountTab::Webhooks => turn_page(model, 1, fx),
        A::PrevPage if tab == AccountTab::Webhooks => turn_page(model, -1, fx),
        A::Rename | A::Members | A::Filter | A::NextPage | A::PrevPage => {}
    }
}

pub(crate) fn paste(model: &mut Model, text: &str) {
    if let Some(r) = model.account.as_mut().and_then(|a| a.rename.as_mut()) {
        r.form.handle_paste(text);
    }
}

fn switch(model: &mut Model, index: usize, fx: &mut Vec<Effect>) {
    if let Some(acc) = model.account.as_mut() {
        acc.tab = AccountTab::ALL[index.min(4)];
    }
    ensure_loaded(model, fx);
}

fn move_by(model: &mut Model, to: impl Fn(&Cursor, usize, usize) -> usize) {
    let Some(tab) = model.account.as_ref().map(|a| a.tab) else {
        return;
    };
    let height = visible_rows(model, tab);
    let Some(acc) = model.account.as_mut() else { return };
    let (len, cursor) = acc.current();
    cursor.selected = to(cursor, len, height);
    cursor.clamp(len, height);
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
        model.status.push(ToastKind::Info, what, now);
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

fn show_members(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(acc) = model.account.as_mut() else { return };
    let Some(team) = acc
        .teams
        .data
        .as_ref()
        .and_then(|t| t.get(acc.teams_cursor.selected))
        .cloned()
    else {
        return;
    };
    acc.members.team = Some((team.uuid.clone(), team.name.clone()));
    acc.members.list.data = None;
    acc.members.list.error = None;
    fetch_members(model, team.uuid, fx);
}

/// The rename form: one required title, pre-filled.
pub fn rename_form(target: RenameTarget, title: &str) -> Form {
    Form::new(
        format!("Rename {} {title}", target.noun()),
        vec![FieldSpec {
            key: "title".into(),
            label: "Title".into(),
            kind: FieldKind::Text {
                value: title.to_string(),
                check: TextCheck::Any,
            },
            required: true,
            help: None,
        }],
    )
}

fn open_rename(model: &mut Model) {
    let Some(acc) = model.account.as_mut() else { return };
    let row = match acc.tab {
        AccountTab::Templates => acc
            .templates
            .data
            .as_ref()
            .and_then(|t| t.get(acc.templates_cursor.selected))
            .map(|t| (RenameTarget::Template, t.uuid.clone(), t.title.clone())),
        AccountTab::Channels => acc
            .channels
            .data
            .as_ref()
            .and_then(|c| c.get(acc.channels_cursor.selected))
            .map(|c| (RenameTarget::Channel, c.uuid.clone(), c.title.clone())),
        _ => None,
    };
    let Some((target, uuid, title)) = row else { return };
    acc.rename = Some(Rename {
        target,
        uuid,
        form: rename_form(target, &title),
        saving: None,
    });
}

fn current_title(acc: &Account, target: RenameTarget, uuid: &str) -> Option<String> {
    match target {
        RenameTarget::Template => acc
            .templates
            .data
            .as_ref()?
            .iter()
            .find(|t| t.uuid == uuid)
            .map(|t| t.title.clone()),
        RenameTarget::Channel => acc
            .channels
            .data
            .as_ref()?
            .iter()
            .find(|c| c.uuid == uuid)
            .map(|c| c.title.clone()),
    }
}

fn submit_rename(model: &mut Model, fx: &mut Vec<Effect>) {
    let id = model.next_id();
    let now = model.now;
    let Some(acc) = model.account.as_mut() else { return };
    let Some(rename) = acc.rename.as_ref() else { return };
    if rename.saving.is_some() {
        return;
    }
    let title = match rename.form.value("title") {
        Some(FormValue::Text(t)) => t.trim().to_string(),
        _ => String::new(),
    };
    let (target, uuid) = (rename.target, rename.uuid.clone());
    if current_title(acc, target, &uuid).as_deref() == Some(title.as_str()) {
        acc.rename = None;
        model.status.push(ToastKind::Info, "nothing changed", now);
        return;
    }
    if let Some(r) = acc.rename.as_mut() {
        r.saving = Some(id);
        r.form.set_busy(true);
    }
    fx.push(Effect::Account(AccountEffect::Rename {
        id,
        target,
        uuid,
        title,
    }));
}

/// Applies a result; results whose id is not the one awaited are dropped.
pub(crate) fn loaded(model: &mut Model, msg: AccountMsg, _fx: &mut [Effect]) {
    if let AccountMsg::Renamed {
        id,
        target,
        uuid,
        title,
        result,
    } = msg
    {
        return renamed(model, id, target, &uuid, title, result);
    }
    let Some(acc) = model.account.as_mut() else { return };
    macro_rules! settle {
        ($remote:expr, $id:expr, $result:expr) => {{
            let r = &mut $remote;
            if r.loading != Some($id) {
                return;
            }
            r.loading = None;
            match $result {
                Ok(v) => {
                    r.data = Some(v);
                    r.error = None;
                }
                Err(e) => r.error = Some(e.to_string()),
            }
        }};
    }
    match msg {
        AccountMsg::Templates { id, result } => settle!(acc.templates, id, result),
        AccountMsg::Channels { id, result } => settle!(acc.channels, id, result),
        AccountMsg::Teams { id, result } => settle!(acc.teams, id, result),
        AccountMsg::Members { id, team, result } => {
            if acc.members.team.as_ref().map(|t| &t.0) != Some(&team) {
                return;
            }
            settle!(acc.members.list, id, result)
        }
        AccountMsg::Plan { id, result } => settle!(acc.plan, id, result),
        AccountMsg::Funnels { id, result } => {
            let result = result.map(|mut f| {
                f.sort_by_key(|f| f.position);
                f
            });
            settle!(acc.funnels, id, result)
        }
        AccountMsg::Events { id, query, result } => {
            let w = &mut acc.webhooks;
            if w.events.loading != Some(id) {
                return;
            }
            w.events.loading = None;
            match result {
                Ok(page) => {
                    let asked = query.page.unwrap_or(1);
                    if page.meta.page.unwrap_or(asked) != w.page {
                        w.cursor = Cursor::default();
                    }
                    w.page = page.meta.page.unwrap_or(asked).max(1);
                    w.pages = page.meta.pages;
                    w.events.data = Some(page.items);
                    w.events.error = None;
                }
                Err(e) => w.events.error = Some(e.to_string()),
            }
        }
        AccountMsg::Renamed { .. } => {}
    }
    clamp_all(model);
}

/// Keeps every cursor inside its list after new data.
fn clamp_all(model: &mut Model) {
    let Some(tabs) = model.account.as_ref().map(|a| a.tab) else {
        return;
    };
    let heights: Vec<usize> = AccountTab::ALL.iter().map(|t| visible_rows(model, *t)).collect();
    let Some(acc) = model.account.as_mut() else { return };
    for (t, h) in AccountTab::ALL.iter().zip(heights) {
        acc.tab = *t;
        let (len, cursor) = acc.current();
        cursor.clamp(len, h);
    }
    acc.tab = tabs;
}

fn renamed(
    model: &mut Model,
    id: u64,
    target: RenameTarget,
    uuid: &str,
    typed: String,
    result: Result<Renamed, crate::api::ApiError>,
) {
    let now = model.now;
    let Some(acc) = model.account.as_mut() else {
        // Closed meanwhile: only say how it went.
        match result {
            Ok(_) => model
                .status
                .push(ToastKind::Success, format!("{} renamed", target.noun()), now),
            Err(e) => model.status.push(
                ToastKind::Error,
                format!("could not rename the {}: {e}", target.noun()),
                now,
            ),
        }
        return;
    };
    let awaited = acc.rename.as_ref().is_some_and(|r| r.saving == Some(id));
    match result {
        Ok(answer) => {
            let title = match &answer {
                Renamed::Template(t) => t.title.clone(),
                Renamed::Channel(c) => c.title.clone(),
            };
            let title = if title.is_empty() { typed } else { title };
            match target {
                RenameTarget::Template => {
                    if let Some(t) = acc.templates.data.iter_mut().flatten().find(|t| t.uuid == uuid) {
                        t.title = title;
                    }
                }
                RenameTarget::Channel => {
                    if let Some(c) = acc.channels.data.iter_mut().flatten().find(|c| c.uuid == uuid) {
                        c.title = title;
                    }
                }
            }
            if awaited {
                acc.rename = None;
            }
            model
                .status
                .push(ToastKind::Success, format!("{} renamed", target.noun()), now);
        }
        Err(e) => {
            if awaited && let Some(r) = acc.rename.as_mut() {
                r.saving = None;
                r.form.set_busy(false);
                r.form.set_error(e.to_string());
            } else {
                model.status.push(
                    ToastKind::Error,
                    format!("could not rename the {}: {e}", target.noun()),
                    now,
                );
            }
        }
    }
}

#[cfg(test)]
#[path = "account_tests.rs"]
mod tests;
