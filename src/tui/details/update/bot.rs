//! The bot panel: the contact's bot, started or stopped with `b`. A
//! start/stop is a write undo follows: the root records it (`WillWrite`,
//! `BotWrote`, `WriteFailed`) and the inbox keeps each row's bot state
//! (`Note::Bot`).

use super::super::fx::DetailsEffect;
use super::super::state::Details;
use crate::api::{ApiError, Bot, BotAction, Contact};
use crate::tui::shared::{Cx, Note, Out, ReqId, ToastKind};

pub(super) fn loaded(
    st: &mut Details,
    out: &mut Out<DetailsEffect>,
    id: ReqId,
    uuid: &str,
    result: Result<Bot, ApiError>,
) {
    let panel = &mut st.bot;
    if panel.loading != Some(id) || panel.contact.as_deref() != Some(uuid) {
        return;
    }
    panel.loading = None;
    match result {
        Ok(bot) => {
            out.note(Note::Bot {
                uuid: uuid.to_string(),
                running: bot.is_running(),
            });
            panel.bot = Some(bot);
            panel.error = None;
        }
        Err(e) => panel.error = Some(e.to_string()),
    }
}

/// `b`: starts the bot when it is stopped, stops it when it runs.
pub fn toggle_bot(st: &mut Details, cx: &Cx, out: &mut Out<DetailsEffect>) {
    let panel = &st.bot;
    let Some(uuid) = panel.contact.clone() else {
        return out.toast(ToastKind::Info, "select a contact first");
    };
    if panel.pending.is_some() {
        return out.toast(ToastKind::Info, "the bot is already being changed");
    }
    let known = panel.bot.as_ref().map(Bot::is_running);
    let known = known.or_else(|| cx.contacts.bot_running(&uuid));
    let running = known.unwrap_or(false);
    let action = if running { BotAction::End } else { BotAction::Start };
    let id = out.id();
    st.bot.pending = Some(id);
    let before = st
        .shown(cx.open)
        .filter(|c| c.uuid == uuid)
        .cloned()
        .or_else(|| cx.contacts.contact(&uuid))
        .unwrap_or_else(|| Contact {
            uuid: uuid.clone(),
            ..Default::default()
        });
    out.note(Note::WillWrite {
        id,
        action: crate::triage::bulk::Action::Bot(!running),
        before: Box::new(before),
        bot_before: known,
    });
    out.fx(DetailsEffect::SetBot { id, uuid, action });
}

pub(super) fn set(
    st: &mut Details,
    out: &mut Out<DetailsEffect>,
    id: ReqId,
    uuid: &str,
    result: Result<Bot, ApiError>,
) {
    let panel = &mut st.bot;
    let mine = panel.pending == Some(id);
    if mine {
        panel.pending = None;
    }
    match result {
        Ok(bot) => {
            let running = bot.is_running();
            out.note(Note::Bot {
                uuid: uuid.to_string(),
                running,
            });
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
            // Undo records it and says so; otherwise the toast is ours.
            out.note(Note::BotWrote {
                id,
                uuid: uuid.to_string(),
                running,
            });
        }
        Err(e) => {
            out.note(Note::WriteFailed(id));
            out.toast(ToastKind::Error, format!("could not change the bot: {e}"));
        }
    }
}
