//! The shared catalog (templates, channels, teams, plan, funnels): each part
//! is fetched the first time something needs it and again only when the
//! user asks (`r` in the account overlay). Answers also teach `known` what
//! the forms and the details pane use, and wake a composer waiting for its
//! templates.

use crate::api::ApiError;
use crate::tui::account::{AccountEffect, AccountMsg};
use crate::tui::effect::Effect;
use crate::tui::model::Model;
use crate::tui::model::catalog::Part;

/// Fetches `part` unless it was fetched (or is being fetched) already.
pub(crate) fn ensure(model: &mut Model, part: Part, fx: &mut Vec<Effect>) {
    if model.catalog.untouched(part) {
        fetch(model, part, fx);
    }
}

/// Fetches `part` now; an answer to an earlier fetch is then dropped.
pub(crate) fn fetch(model: &mut Model, part: Part, fx: &mut Vec<Effect>) {
    let id = model.next_id();
    model.catalog.start(part, id);
    fx.push(Effect::Account(AccountEffect::fetch_part(part, id)));
}

/// What [`loaded`] did with a result: the caller does the follow-ups
/// (the composer waits for templates, the account tabs clamp their rows).
pub(crate) enum Caught {
    /// A catalog part's result; `templates` when the templates settled.
    Part { templates: bool },
    /// Not a catalog result.
    Not(Box<AccountMsg>),
}

/// Applies a catalog answer; any other message is handed back.
pub(crate) fn loaded(model: &mut Model, msg: AccountMsg, fx: &mut Vec<Effect>) -> Caught {
    let mut templates = false;
    let now = model.now;
    let cat = &mut model.catalog;
    match msg {
        AccountMsg::Templates { id, result } => {
            // Phrased for the composer, which shows it as is.
            let result = result.map_err(|e| match e {
                ApiError::NotOffered { .. } => "this server does not offer templates".to_string(),
                e => format!("could not load templates: {e}"),
            });
            templates = cat.templates.settle(id, result, now);
        }
        AccountMsg::Channels { id, result } => {
            if cat.channels.settle(id, result, now) {
                // Without a channel list the new-contact form leaves the
                // field out and the server uses the main channel.
                match (&cat.channels.data, &cat.channels.error) {
                    (Some(list), None) => model.known.set_channels(list.clone()),
                    (None, _) => model.known.channels.clear(),
                    // A failed refresh keeps what was known.
                    (Some(_), Some(_)) => {}
                }
            }
        }
        AccountMsg::Teams { id, result } => {
            if cat.teams.settle(id, result, now) && cat.teams.error.is_none() {
                let teams: Vec<_> = cat.teams.data.iter().flatten().cloned().collect();
                for t in teams {
                    model.known.add_team(&t.uuid, &t.name);
                    // Members are the collaborators offered by the assign form.
                    fx.push(Effect::Details(crate::tui::details::DetailsEffect::FetchTeamMembers {
                        team: t.uuid,
                    }));
                }
            }
        }
        AccountMsg::Plan { id, result } => {
            if cat.plan.settle(id, result, now)
                && let Some(plan) = &cat.plan.data
            {
                for t in &plan.teams {
                    model.known.add_team(&t.uuid, &t.name);
                }
            }
        }
        AccountMsg::Funnels { id, result } => {
            let result = result.map(|mut f| {
                f.sort_by_key(|f| f.position);
                f
            });
            if cat.funnels.settle(id, result, now) {
                // Without the list the details pane shows a short uuid.
                if let Some(funnels) = &cat.funnels.data {
                    model.known.funnels = funnels
                        .iter()
                        .map(|f| (f.uuid.clone(), (f.emoji.clone(), f.name.clone())))
                        .collect();
                }
            }
        }
        other => return Caught::Not(Box::new(other)),
    }
    Caught::Part { templates }
}

#[cfg(test)]
mod tests;
