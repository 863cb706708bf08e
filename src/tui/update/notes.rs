//! Outward notes inside update: what a write sets off, and the routing of
//! the notes slices hand back. Any part of update
//! may call these; `call!` routes through `route`, so they call nothing in
//! update that calls a slice (only `owner`, `catalog` and what they use).

use crate::tui::effect::Effect;
use crate::tui::index_worker::IndexCmd;
use crate::tui::model::Model;
use crate::tui::shared::Note;
use crate::tui::shared::catalog::Part;

/// After a write of ours the API accepted: an incremental pass, so the
/// index (and the list) see what it moved.
pub(crate) fn after_write(model: &Model, fx: &mut Vec<Effect>) {
    if model.sync.enabled() {
        fx.push(Effect::Index(IndexCmd::Incremental));
    }
}

/// A message of the agent's went to `contact`: its row is seen, the
/// message the next sync brings back is not new, and (with the index) the
/// row's last message is this one now: the preview shows it and the
/// conversation no longer waits.
fn sent(model: &mut Model, contact: &str, text: &str, at: chrono::DateTime<chrono::Utc>) {
    model.list.sent(contact, at);
    if !model.sync.enabled() {
        return;
    }
    let Some(activity) = model.list.get(contact).map(|r| r.last_activity()) else {
        return;
    };
    let message = crate::api::Message {
        uuid: None,
        text: text.to_string(),
        created_at: Some(at),
        status: crate::api::MessageStatus::Sent,
        channel: String::new(),
        from: String::new(),
        to: String::new(),
        sent_by: None,
        rich: Default::default(),
    };
    let preview = crate::index::Preview::of(&[message], activity);
    model.list.store.set_last(contact, (&preview).into());
    model.sync.previews.insert(contact.to_string(), preview);
    model.sync.previews_version += 1;
}

/// The server renamed a catalog row: every reader of the catalog (the
/// composer's picker, the new-contact form's channels) sees the new title.
fn renamed(model: &mut Model, part: Part, uuid: &str, title: String) {
    let cat = &mut model.catalog;
    match part {
        Part::Templates => {
            if let Some(t) = cat.templates.data.iter_mut().flatten().find(|t| t.uuid == uuid) {
                t.title = title;
            }
        }
        Part::Channels => {
            if let Some(c) = cat.channels.data.iter_mut().flatten().find(|c| c.uuid == uuid) {
                c.title = title;
            }
            if let Some(list) = cat.channels.data.clone() {
                model.known.set_channels(list);
            }
        }
        Part::Teams | Part::Plan | Part::Funnels => {}
    }
}

/// Hands each note a slice returned to the part that cares.
pub(crate) fn route(model: &mut Model, notes: Vec<Note>, fx: &mut Vec<Effect>) {
    for note in notes {
        match note {
            Note::Toast { kind, text, secs } => {
                let now = model.now;
                match secs {
                    Some(s) => model.status.push_for(kind, text, now, s),
                    None => model.status.push(kind, text, now),
                }
            }
            Note::Focus(pane) => model.focus = pane,
            // The inbox's (`update/inbox.rs` loads it at once); from
            // elsewhere, once the message is done.
            note @ Note::Show(_) => model.later.push(note),
            Note::Seen(uuid) => model.list.mark_seen(&uuid),
            Note::Wrote(_) => after_write(model, fx),
            Note::Sent { contact, text, at } => {
                sent(model, &contact, &text, at);
                after_write(model, fx);
                super::owner::assign_on_reply(model, &contact, fx);
            }
            Note::Sending { .. } => {
                model.thread.scroll_to_newest();
                // A message cannot be taken back: `u` says so before it
                // undoes anything older.
                let now = model.now;
                model.act.undo.cannot_undo("sending", now);
            }
            Note::Fetch(part) => super::catalog::fetch(model, part, fx),
            Note::Learned(c) => {
                model.known.learn(&c);
                model.details.learn(&c);
            }
            Note::Collaborator { email, name, available } => {
                model.known.add_collaborator_named(&email, &name);
                if let Some(a) = available {
                    model.known.available.insert(email.to_lowercase(), a);
                }
            }
            Note::Bot { uuid, running } => {
                model.list.bots.insert(uuid, running);
            }
            Note::WillWrite {
                id,
                action,
                before,
                bot_before,
            } => crate::tui::act::will_write(&mut model.act, id, action, *before, bot_before),
            // Recording it reads the contacts through a Cx: update does it
            // once the call that sent it has returned.
            note @ Note::BotWrote { .. } => model.later.push(note),
            Note::WriteFailed(id) => crate::tui::act::write_failed(&mut model.act, id),
            Note::Badge { uuid, badge, on } => model.badges.set(&uuid, badge, on),
            Note::Bell => fx.push(Effect::Bell),
            Note::Terminal(bytes) => fx.push(Effect::Terminal(bytes)),
            Note::Arrived(uuid) => {
                let now = model.now;
                crate::tui::notify::arrived(&mut model.slices.notify, &uuid, now);
            }
            // Sent through the write pipeline once the call is done.
            note @ Note::Reopen(_) => model.later.push(note),
            Note::Redraw => fx.push(Effect::Redraw),
            Note::Copy(text) => fx.push(Effect::CopyToClipboard(text)),
            Note::Quit => model.quit = true,
            Note::CatalogFetch { part, id } => model.catalog.start(part, id),
            Note::CatalogRenamed { part, uuid, title } => renamed(model, part, &uuid, title),
            Note::ThreadPage {
                contact,
                messages,
                fresh,
            } => {
                if !model.sync.enabled() {
                    continue;
                }
                let activity = model.list.get(&contact).and_then(|r| r.last_activity());
                let stale = model.sync.previews.get(&contact).is_none_or(|p| p.activity != activity);
                if fresh || stale {
                    fx.push(Effect::Index(IndexCmd::StoreThread {
                        uuid: contact,
                        activity,
                        messages,
                    }));
                }
            }
        }
    }
}
