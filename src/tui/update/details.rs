//! Details, bot and availability panels.

use crate::api::{ApiError, Bot, BotAction, Contact, CustomStatusChange, TeamMember, UserStatus, UserStatusUpdate};
use crate::tui::effect::Effect;
use crate::tui::form::custom_status_picker;
use crate::tui::keymap::Action;
use crate::tui::model::hints::NO_USER_HINT;
use crate::tui::model::{BotPanel, Model, Overlay, ToastKind};
use crate::tui::msg::ReqId;

pub(crate) fn open(model: &mut Model, uuid: &str, fx: &mut Vec<Effect>) {
    let id = model.next_id();
    model.details.full = model.list.contact(uuid);
    model.details.loading = Some(id);
    model.details.scroll = 0;
    fx.push(Effect::FetchContact {
        id,
        uuid: uuid.to_string(),
    });
    let id = model.next_id();
    model.details.bot = BotPanel {
        contact: Some(uuid.to_string()),
        loading: Some(id),
        ..Default::default()
    };
    fx.push(Effect::FetchBot {
        id,
        uuid: uuid.to_string(),
    });
}

/// The contact the details pane shows.
pub(crate) fn shown(model: &Model) -> Option<&Contact> {
    let uuid = model.thread.contact.as_deref()?;
    model.details.full.as_ref().filter(|c| c.uuid == uuid)
}

pub(crate) fn contact_loaded(model: &mut Model, id: ReqId, uuid: &str, result: Result<Contact, ApiError>) {
    if model.details.loading != Some(id) {
        return;
    }
    model.details.loading = None;
    match result {
        Ok(c) => {
            model.known.learn(&c);
            if model.thread.contact.as_deref() == Some(uuid) {
                model.details.full = Some(c);
            }
        }
        Err(e) => {
            let now = model.now;
            model
                .status
                .push(ToastKind::Error, format!("could not load the contact: {e}"), now);
        }
    }
}

pub(crate) fn bot_loaded(model: &mut Model, id: ReqId, uuid: &str, result: Result<Bot, ApiError>) {
    let panel = &mut model.details.bot;
    if panel.loading != Some(id) || panel.contact.as_deref() != Some(uuid) {
        return;
    }
    panel.loading = None;
    match result {
        Ok(bot) => {
            model.list.bots.insert(uuid.to_string(), bot.is_running());
            panel.bot = Some(bot);
            panel.error = None;
        }
        Err(e) => panel.error = Some(e.to_string()),
    }
}

pub(crate) fn toggle_bot(model: &mut Model, fx: &mut Vec<Effect>) {
    let now = model.now;
    let panel = &model.details.bot;
    let Some(uuid) = panel.contact.clone() else {
        return model.status.push(ToastKind::Info, "select a contact first", now);
    };
    if panel.pending.is_some() {
        return model
            .status
            .push(ToastKind::Info, "the bot is already being changed", now);
    }
    let known = panel.bot.as_ref().map(Bot::is_running);
    let known = known.or_else(|| model.list.bots.get(&uuid).copied());
    let running = known.unwrap_or(false);
    let action = if running { BotAction::End } else { BotAction::Start };
    let id = model.next_id();
    model.details.bot.pending = Some(id);
    let before = shown(model)
        .filter(|c| c.uuid == uuid)
        .cloned()
        .or_else(|| model.list.contact(&uuid))
        .unwrap_or_else(|| Contact {
            uuid: uuid.clone(),
            ..Default::default()
        });
    super::record::will_write(model, id, crate::triage::bulk::Action::Bot(!running), before, known);
    fx.push(Effect::SetBot { id, uuid, action });
}

pub(crate) fn bot_set(model: &mut Model, id: ReqId, uuid: &str, result: Result<Bot, ApiError>) {
    let now = model.now;
    let panel = &mut model.details.bot;
    let mine = panel.pending == Some(id);
    if mine {
        panel.pending = None;
    }
    match result {
        Ok(bot) => {
            let running = bot.is_running();
            model.list.bots.insert(uuid.to_string(), running);
            if mine && panel.contact.as_deref() == Some(uuid) {
                let mut bot = bot;
                // The answer to bot_end may leave the name out: keep the one we had.
                if bot.name.is_empty()
                    && let Some(old) = &panel.bot
                {
                    bot.name = old.name.clone();
                }
                panel.bot = Some(bot);
                panel.error = None;
            }
            if !super::record::bot_wrote(model, id, uuid, running) {
                let text = if running { "bot started" } else { "bot stopped" };
                model.status.push(ToastKind::Success, text, now);
            }
        }
        Err(e) => {
            super::record::write_failed(model, id);
            model
                .status
                .push(ToastKind::Error, format!("could not change the bot: {e}"), now)
        }
    }
}

pub(crate) fn toggle_availability(model: &mut Model, fx: &mut Vec<Effect>) {
    let now = model.now;
    let av = &mut model.availability;
    let Some(user) = av.user.clone() else {
        return model.status.push(ToastKind::Info, NO_USER_HINT, now);
    };
    if av.pending.is_some() {
        return;
    }
    let next = !av.available.unwrap_or(false);
    av.before = Some(av.available);
    av.available = Some(next); // optimistic; restored on failure
    av.changing_custom = false;
    let id = model.next_id();
    model.availability.pending = Some(id);
    fx.push(Effect::SetUserStatus {
        id,
        user,
        update: UserStatusUpdate {
            available: Some(next),
            custom_status: CustomStatusChange::Keep,
        },
    });
}

pub(crate) fn open_custom_status(model: &mut Model) {
    let now = model.now;
    if model.availability.user.is_none() {
        return model.status.push(ToastKind::Info, NO_USER_HINT, now);
    }
    match &model.availability.statuses {
        None => model
            .status
            .push(ToastKind::Info, "custom statuses are still loading", now),
        Some(Err(e)) => model.status.push(ToastKind::Error, e.clone(), now),
        Some(Ok(list)) => {
            let current = model.availability.custom_status.as_ref().map(|(id, _)| id.as_str());
            model.overlay = Some(Overlay::CustomStatus(custom_status_picker(list, current)));
        }
    }
}

/// The custom status picker chose `id` ("" clears it).
pub(crate) fn set_custom_status(model: &mut Model, id: String, fx: &mut Vec<Effect>) {
    let Some(user) = model.availability.user.clone() else {
        return;
    };
    let change = if id.is_empty() {
        CustomStatusChange::Clear
    } else {
        CustomStatusChange::Set(id)
    };
    let req = model.next_id();
    model.availability.pending = Some(req);
    model.availability.changing_custom = true;
    model.availability.before = Some(model.availability.available);
    fx.push(Effect::SetUserStatus {
        id: req,
        user,
        update: UserStatusUpdate {
            available: None,
            custom_status: change,
        },
    });
}

pub(crate) fn user_status_set(model: &mut Model, id: ReqId, result: Result<UserStatus, ApiError>) {
    let now = model.now;
    let av = &mut model.availability;
    if av.pending != Some(id) {
        return;
    }
    av.pending = None;
    match result {
        Ok(status) => {
            if let Some(a) = status.appearance {
                av.available = Some(a.available);
            }
            av.custom_status = status
                .custom_status
                .and_then(|c| c.id.map(|id| (id, c.name.unwrap_or_default())))
                .filter(|(id, _)| !id.is_empty());
            av.before = None;
            let text = match (av.changing_custom, &av.custom_status, av.available) {
                (true, Some((_, name)), _) => format!("custom status: {name}"),
                (true, None, _) => "custom status cleared".to_string(),
                (false, _, Some(true)) => "you are available".to_string(),
                (false, _, Some(false)) => "you are away".to_string(),
                (false, _, None) => "status saved".to_string(),
            };
            model.status.push(ToastKind::Success, text, now);
        }
        Err(e) => {
            if let Some(before) = av.before.take() {
                av.available = before;
            }
            model
                .status
                .push(ToastKind::Error, format!("could not set your status: {e}"), now);
        }
    }
}

pub(crate) fn copy_link(model: &mut Model, fx: &mut Vec<Effect>) {
    let now = model.now;
    let contact = shown(model).cloned().or_else(|| model.list.selected_contact());
    let link = contact.and_then(|c| c.conversation_href.or(c.href));
    match link {
        Some(link) => {
            fx.push(Effect::CopyToClipboard(link.clone()));
            let text = format!("copied {} (OSC 52)", crate::tui::text::sanitize_line(&link));
            model.status.push(ToastKind::Success, text, now);
        }
        None => model
            .status
            .push(ToastKind::Info, "this contact has no dashboard link", now),
    }
}

pub(crate) fn scroll(model: &mut Model, action: Action) {
    let s = &mut model.details.scroll;
    *s = match action {
        Action::MoveDown => s.saturating_add(1),
        Action::MoveUp => s.saturating_sub(1),
        Action::PageDown => s.saturating_add(10),
        Action::PageUp => s.saturating_sub(10),
        Action::Top => 0,
        _ => *s,
    };
}

/// There is no GET for my own status; a team member entry with my email
/// tells it, until I change it here.
pub(crate) fn learn_my_status(model: &mut Model, member: &TeamMember) {
    let av = &mut model.availability;
    if av.email.as_deref() != Some(member.email.as_str()) || av.pending.is_some() || av.available.is_some() {
        return;
    }
    av.available = member.available;
    if let Some(cs) = member.user_custom_status.as_ref() {
        let id = cs.id.clone().unwrap_or_default();
        let name = cs.name.clone();
        if !id.is_empty() {
            av.custom_status = Some((id, name));
        }
    }
}
