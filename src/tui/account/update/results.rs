//! Answers to the account overlay's requests. Results whose id is not the
//! one awaited are dropped; catalog answers are the root's.

use crate::api::ApiError;
use crate::tui::account::fx::AccountEffect;
use crate::tui::account::msg::{AccountMsg, Renamed};
use crate::tui::account::state::Open as State;
use crate::tui::account::state::{AccountForm, RenameTarget, Scroll};
use crate::tui::shared::catalog::Part;
use crate::tui::shared::{Cx, Note, Out, ReqId, ToastKind};

type O<'a> = Out<'a, AccountEffect>;

/// A catalog part settled (the root keeps the catalog): the tabs keep
/// their selections inside the lists.
pub fn catalog_settled(st: &mut State, cx: &Cx) {
    super::rows::clamp_all(st, cx);
}

/// Applies a result that is not a catalog part's.
pub fn loaded(st: &mut State, cx: &Cx, out: &mut O, msg: AccountMsg) {
    let now = cx.now;
    match msg {
        AccountMsg::Renamed {
            id,
            target,
            uuid,
            title,
            result,
        } => return renamed(st, out, id, target, &uuid, title, result),
        AccountMsg::Template { id, uuid, result } => {
            let Some(t) = st.as_mut().and_then(|a| a.template.as_mut()).filter(|t| t.uuid == uuid) else {
                return;
            };
            t.remote.settle(id, result, now);
        }
        AccountMsg::Team { id, uuid, result } => {
            let Some(m) = st.as_mut().map(|a| &mut a.members) else {
                return;
            };
            if m.team.as_ref().map(|t| &t.0) == Some(&uuid) {
                m.detail.settle(id, result, now);
            }
        }
        AccountMsg::Members { id, team, result } => {
            let Some(m) = st.as_mut().map(|a| &mut a.members) else {
                return;
            };
            if m.team.as_ref().map(|t| &t.0) == Some(&team) {
                m.list.settle(id, result, now);
            }
        }
        AccountMsg::Events { id, query, result } => {
            let Some(w) = st.as_mut().map(|a| &mut a.webhooks) else {
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
    super::rows::clamp_all(st, cx);
}

fn renamed(
    st: &mut State,
    out: &mut O,
    id: ReqId,
    target: RenameTarget,
    uuid: &str,
    typed: String,
    result: Result<Renamed, ApiError>,
) {
    let awaited = st
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
            // The catalog is shared (the root renames its row): the
            // composer's picker sees the new title too, even when the
            // overlay was closed meanwhile.
            let part = match target {
                RenameTarget::Template => Part::Templates,
                RenameTarget::Channel => Part::Channels,
            };
            out.note(Note::CatalogRenamed {
                part,
                uuid: uuid.to_string(),
                title: title.clone(),
            });
            if target == RenameTarget::Template
                && let Some(t) = st
                    .as_mut()
                    .and_then(|a| a.template.as_mut())
                    .and_then(|t| t.remote.data.as_mut())
                    .filter(|t| t.uuid == uuid)
            {
                t.title = title;
            }
            if awaited && let Some(acc) = st.as_mut() {
                acc.form = None;
            }
            out.toast(ToastKind::Success, format!("{} renamed", target.noun()));
        }
        Err(e) => {
            let form = st.as_mut().and_then(|a| match a.form.as_mut() {
                Some(AccountForm::Rename(r)) if awaited => Some(r),
                _ => None,
            });
            if let Some(r) = form {
                r.saving = None;
                r.form.set_busy(false);
                r.form.set_error(e.to_string());
            } else {
                out.toast(ToastKind::Error, format!("could not rename the {}: {e}", target.noun()));
            }
        }
    }
}
