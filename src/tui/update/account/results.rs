//! Answers to the account overlay's requests. Results whose id is not the
//! one awaited are dropped; catalog answers go to `update::catalog`.

use crate::api::ApiError;
use crate::tui::effect::Effect;
use crate::tui::model::account::{AccountForm, RenameTarget, Scroll};
use crate::tui::model::{Model, ToastKind};
use crate::tui::msg::ReqId;
use crate::tui::msg::account::{AccountMsg, Renamed};
use crate::tui::update::call::call;
use crate::tui::update::catalog;

/// Applies a result.
pub(crate) fn loaded(model: &mut Model, msg: AccountMsg, fx: &mut Vec<Effect>) {
    let msg = match catalog::loaded(model, msg, fx) {
        catalog::Caught::Part { templates } => {
            if templates {
                call!(model, fx, compose, Effect::Compose, |st, cx, out| {
                    crate::tui::compose::templates_arrived(st, cx, out)
                });
            }
            super::rows::clamp_all(model);
            return;
        }
        catalog::Caught::Not(msg) => *msg,
    };
    let now = model.now;
    match msg {
        AccountMsg::Renamed {
            id,
            target,
            uuid,
            title,
            result,
        } => return renamed(model, id, target, &uuid, title, result),
        AccountMsg::Template { id, uuid, result } => {
            let Some(t) = model
                .account
                .as_mut()
                .and_then(|a| a.template.as_mut())
                .filter(|t| t.uuid == uuid)
            else {
                return;
            };
            t.remote.settle(id, result, now);
        }
        AccountMsg::Team { id, uuid, result } => {
            let Some(m) = model.account.as_mut().map(|a| &mut a.members) else {
                return;
            };
            if m.team.as_ref().map(|t| &t.0) == Some(&uuid) {
                m.detail.settle(id, result, now);
            }
        }
        AccountMsg::Members { id, team, result } => {
            let Some(m) = model.account.as_mut().map(|a| &mut a.members) else {
                return;
            };
            if m.team.as_ref().map(|t| &t.0) == Some(&team) {
                m.list.settle(id, result, now);
            }
        }
        AccountMsg::Events { id, query, result } => {
            let Some(w) = model.account.as_mut().map(|a| &mut a.webhooks) else {
                return;
            };
            if w.events.loading != Some(id) {
                return;
            }
            w.events.loading = None;
            match result {
                Ok(page) => {
                    let asked = query.page.unwrap_or(1);
                    if page.meta.page.unwrap_or(asked) != w.page {
                        w.cursor = Scroll::default();
                    }
                    w.page = page.meta.page.unwrap_or(asked).max(1);
                    w.pages = page.meta.pages;
                    w.events.data = Some(page.items);
                    w.events.error = None;
                    w.events.loaded_at = Some(now);
                }
                Err(e) => w.events.error = Some(e.to_string()),
            }
        }
        // Catalog parts, handled above.
        AccountMsg::Templates { .. }
        | AccountMsg::Channels { .. }
        | AccountMsg::Teams { .. }
        | AccountMsg::Plan { .. }
        | AccountMsg::Funnels { .. } => {}
    }
    super::rows::clamp_all(model);
}

fn renamed(
    model: &mut Model,
    id: ReqId,
    target: RenameTarget,
    uuid: &str,
    typed: String,
    result: Result<Renamed, ApiError>,
) {
    let now = model.now;
    let awaited = model
        .account
        .as_ref()
        .and_then(|a| a.rename())
        .is_some_and(|r| r.saving == Some(id));
    match result {
        Ok(answer) => {
            let title = match &answer {
                Renamed::Template(t) => t.title.clone(),
                Renamed::Channel(c) => c.title.clone(),
            };
            let title = if title.is_empty() { typed } else { title };
            // The catalog is shared: the composer's picker sees the new
            // title too, even when the overlay was closed meanwhile.
            let cat = &mut model.catalog;
            match target {
                RenameTarget::Template => {
                    if let Some(t) = cat.templates.data.iter_mut().flatten().find(|t| t.uuid == uuid) {
                        t.title = title.clone();
                    }
                    if let Some(t) = model
                        .account
                        .as_mut()
                        .and_then(|a| a.template.as_mut())
                        .and_then(|t| t.remote.data.as_mut())
                        .filter(|t| t.uuid == uuid)
                    {
                        t.title = title;
                    }
                }
                RenameTarget::Channel => {
                    if let Some(c) = cat.channels.data.iter_mut().flatten().find(|c| c.uuid == uuid) {
                        c.title = title;
                    }
                    if let Some(list) = cat.channels.data.clone() {
                        model.known.set_channels(list);
                    }
                }
            }
            if awaited && let Some(acc) = model.account.as_mut() {
                acc.form = None;
            }
            model
                .status
                .push(ToastKind::Success, format!("{} renamed", target.noun()), now);
        }
        Err(e) => {
            let form = model.account.as_mut().and_then(|a| match a.form.as_mut() {
                Some(AccountForm::Rename(r)) if awaited => Some(r),
                _ => None,
            });
            if let Some(r) = form {
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
