//! Writes on contacts: close/reopen (the keys; the write is `close.rs`),
//! the forms, drafts and rollbacks.

use crate::api::{ApiError, Contact};
use crate::triage::bulk::Action;
use crate::tui::effect::Effect;
use crate::tui::form::FieldId;
use crate::tui::form::{self, Form};
use crate::tui::index_worker::IndexCmd;
use crate::tui::keymap::Action as Key;
use crate::tui::model::{FormKind, Model, Overlay, PendingWrite, ToastKind};
use crate::tui::msg::{ReqId, WriteKind};

use super::close::close_or_reopen;
use super::inbox::selection_changed;
use super::{list, recheck};

fn kind_of(action: Key) -> Option<WriteKind> {
    Some(match action {
        Key::Edit => WriteKind::Edit,
        Key::Tags => WriteKind::Tags,
        Key::Assign => WriteKind::Assign,
        Key::Team => WriteKind::Team,
        Key::Note => WriteKind::Note,
        Key::NewContact => WriteKind::NewContact,
        _ => return None,
    })
}

/// The contact actions work on: the details record (it has field types)
/// when it is the selected one, else the list row.
fn target(model: &Model) -> Option<Contact> {
    let selected = model.list.selected_row()?;
    match model.details.shown(model.thread.contact.as_deref()) {
        Some(full) if *full.uuid == *selected.uuid => {
            let mut c = full.clone();
            // The list row may be newer (a refresh or our own write).
            c.closed_at = selected.closed_at;
            Some(c)
        }
        _ => Some(selected.to_contact()),
    }
}

pub(crate) fn open_form(model: &mut Model, action: Key) {
    let Some(kind) = kind_of(action) else { return };
    let now = model.now;
    let contact = if kind == WriteKind::NewContact {
        Some(Contact::default())
    } else {
        target(model)
    };
    let Some(contact) = contact else {
        return model.status.push(ToastKind::Info, "select a contact first", now);
    };
    let fkind = FormKind::Write(kind);
    if model.list.pending.get(&contact.uuid).is_some_and(|p| p.kind == kind) {
        return model.status.push(ToastKind::Info, "still saving the last change", now);
    }
    let form = match model.act.drafts.remove(&(contact.uuid.clone(), fkind)) {
        Some(draft) => draft,
        None => new_form(model, kind, &contact),
    };
    model.overlay = Some(Overlay::Form {
        kind: fkind,
        uuid: contact.uuid,
        form,
        saving: None,
    });
}

fn new_form(model: &Model, kind: WriteKind, c: &Contact) -> Form {
    let k = &model.known;
    match kind {
        WriteKind::Edit => form::edit_contact_form(c),
        WriteKind::Tags => form::tags_form(c, &k.tags),
        WriteKind::Assign => form::assign_form(c, &k.assignees_with_load(&model.list.open_by_assignee())),
        WriteKind::Team => form::team_form(c, &k.teams),
        WriteKind::Note => form::note_form(c),
        _ => form::new_contact_form(
            &k.sources,
            &k.tags,
            &k.collaborators,
            &k.teams,
            &k.channels,
            &k.field_meta,
        ),
    }
}

pub(crate) fn open_filter(model: &mut Model) {
    let k = &model.known;
    let form = form::filter_form(&model.list.filter, &k.sources, &k.tags, &k.teams);
    model.overlay = Some(Overlay::Form {
        kind: FormKind::Filter,
        uuid: String::new(),
        form,
        saving: None,
    });
}

/// The open form was submitted: validate, then send.
pub(crate) fn submit(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(Overlay::Form {
        kind,
        uuid,
        form,
        saving,
    }) = model.overlay.as_mut()
    else {
        return;
    };
    if saving.is_some() {
        return;
    }
    let (kind, uuid) = (*kind, uuid.clone());
    let form = form.clone();
    let now = model.now;
    let id = model.next_id();
    let k = &model.known;
    let write = match kind {
        FormKind::Filter => {
            let filter = form::filter_value(&form, &k.teams, false);
            model.overlay = None;
            list::set_filter(model, filter, fx);
            return;
        }
        FormKind::View => {
            return super::views::submit_filter(model, &form, fx);
        }
        FormKind::Write(w) => w,
        FormKind::Many(which) => {
            if let Err(msg) = super::many::submit(model, which, &form, fx)
                && let Some(Overlay::Form { form, .. }) = model.overlay.as_mut()
            {
                form.set_error(msg);
            }
            return;
        }
    };
    let contact = model.list.contact(&uuid);
    let contact = (model.details)
        .shown(model.thread.contact.as_deref())
        .filter(|c| c.uuid == uuid)
        .cloned()
        .or(contact)
        .unwrap_or_default();
    let effect = match write {
        WriteKind::NewContact => {
            form::new_contact_body(&form, &k.teams, &k.channels, &k.field_meta).map(|body| Effect::Create { id, body })
        }
        _ => {
            let patch = match write {
                WriteKind::Edit => form::edit_contact_patch(&contact, &form),
                WriteKind::Tags => Ok(form::tags_patch(&form)),
                WriteKind::Assign => form::assign_patch(&contact, &form),
                WriteKind::Team => form::team_patch(&form, &k.teams),
                _ => form::note_patch(&form),
            };
            match patch {
                Ok(p) if p.is_empty() => {
                    model.overlay = None;
                    return model.status.push(ToastKind::Info, "nothing changed", now);
                }
                Ok(patch) if write == WriteKind::Assign => {
                    let action = write.action(patch);
                    // A colleague replying, or who just replied: asked
                    // first (the form goes; `y` sends it).
                    if super::owner::ask_if_busy(model, &contact, &action) {
                        return;
                    }
                    Ok(Effect::Apply {
                        id,
                        uuid: uuid.clone(),
                        guard: super::owner::guard(model, &contact),
                        action,
                    })
                }
                other => other.map(|patch| Effect::Apply {
                    id,
                    uuid: uuid.clone(),
                    action: write.action(patch),
                    guard: None,
                }),
            }
        }
    };
    // A write undo knows (not edit, not a new contact) remembers the
    // contact as it was.
    if let Ok(Effect::Apply { action, .. }) = &effect {
        model.act.writes.insert(id, action.clone());
        if !matches!(action, Action::Edit { .. }) {
            super::record::will_write(model, id, action.clone(), contact, None);
        }
    }
    let Some(Overlay::Form { form: open, saving, .. }) = model.overlay.as_mut() else {
        return;
    };
    match effect {
        Err(msg) => open.set_error(msg),
        Ok(effect) => {
            open.set_busy(true);
            *saving = Some(id);
            model.act.saving.insert(id, (uuid.clone(), kind, form));
            if !uuid.is_empty() {
                model.list.pending.insert(
                    uuid,
                    PendingWrite {
                        id,
                        kind: write,
                        before: None,
                    },
                );
            }
            fx.push(effect);
        }
    }
}

/// `c`: close or reopen at once (optimistic); `C`: close and move on to the
/// next open conversation.
pub(crate) fn toggle_closed(model: &mut Model, and_next: bool, fx: &mut Vec<Effect>) {
    let now = model.now;
    let Some(c) = model.list.selected_contact() else {
        return model.status.push(ToastKind::Info, "select a contact first", now);
    };
    if model.list.pending.contains_key(&c.uuid) {
        return model.status.push(ToastKind::Info, "still saving the last change", now);
    }
    if !and_next || c.is_open() {
        let action = if c.is_open() { Action::Close } else { Action::Reopen };
        // A colleague replying, or who just replied: asked first.
        if action == Action::Close && super::owner::ask_if_busy(model, &c, &action) {
            return;
        }
        let guard = super::owner::guard(model, &c);
        close_or_reopen(model, c, action, guard, fx);
    }
    if and_next {
        let len = model.list.visible_len();
        let next = (model.list.view.selected + 1..len).find(|&r| model.list.row(r).is_some_and(|c| c.is_open()));
        match next {
            Some(r) => {
                model.list.view.selected = r;
                let h = model.list_height();
                model.list.clamp(h);
                selection_changed(model, fx);
            }
            None => model
                .status
                .push(ToastKind::Info, "no more open conversations loaded", now),
        }
        list::maybe_prefetch(model, fx);
    }
}

/// One action's answer: one contact's write `id` (a run of one action),
/// else a job of the run on many.
pub(crate) fn applied(model: &mut Model, id: ReqId, uuid: &str, answer: crate::tui::act::Answer, fx: &mut Vec<Effect>) {
    let Some(action) = model.act.writes.remove(&id) else {
        return super::bulk::applied(model, id, uuid, answer, fx);
    };
    let kind = WriteKind::of(&action);
    let now = model.now;
    let pending = match model.list.pending.get(uuid) {
        Some(p) if p.id == id => model.list.pending.remove(uuid),
        _ => None,
    };
    let saving = model.act.saving.remove(&id);
    let overlay_is_this = matches!(&model.overlay, Some(Overlay::Form { saving: Some(s), .. }) if *s == id);
    let reply = model.act.replies.remove(&id);
    if let (Some(what), Ok(now_c)) = (&answer.changed, &answer.result) {
        // A colleague's change since this agent saw it: not written.
        if let Some((u, fk, _)) = &saving {
            model.act.drafts.remove(&(u.clone(), *fk));
        }
        if overlay_is_this {
            model.overlay = None;
        }
        if reply {
            return super::owner::reply_kept(model, id, now_c.clone(), what);
        }
        return super::owner::changed(model, id, action, now_c.clone(), what, fx);
    }
    match answer.result {
        Ok(mut contact) => {
            settled(model, &contact, saving.as_ref(), overlay_is_this, fx);
            let name = crate::tui::text::sanitize_line(&contact.name);
            if let Some(full) = model.details.full.as_mut().filter(|f| f.uuid == contact.uuid) {
                if contact.custom_fields_metadata.is_none() {
                    contact.custom_fields_metadata = full.custom_fields_metadata.clone();
                }
                *full = contact.clone();
            }
            if model.list.selected_uuid().as_deref() == Some(contact.uuid.as_str()) {
                super::views::keep(model, &contact.uuid);
            }
            model.list.store.replace(contact.clone());
            if reply {
                // Undo stays offered; the toast says why it happened.
                super::recorded::wrote(model, id, answer.before.as_deref(), &contact);
                model.status.push(
                    ToastKind::Success,
                    format!("assigned to you (you replied): {name}"),
                    now,
                );
            } else if !super::recorded::wrote(model, id, answer.before.as_deref(), &contact) {
                model
                    .status
                    .push(ToastKind::Success, format!("{}: {name}", kind.done()), now);
            }
            super::owner::own_timeline(model, &contact.uuid);
        }
        Err(e) => {
            super::record::write_failed(model, id);
            if let Some(before) = pending.and_then(|p| p.before) {
                model.list.store.replace(before.clone());
                if let Some(full) = model.details.full.as_mut().filter(|f| f.uuid == uuid) {
                    full.closed_at = before.closed_at;
                }
            }
            let shown = crate::tui::text::sanitize_line(&e);
            failed(model, saving, overlay_is_this, &shown);
            model
                .status
                .push(ToastKind::Error, format!("could not {}: {shown}", kind.verb()), now);
        }
    }
}

/// The answer to the create `id`.
pub(crate) fn created(model: &mut Model, id: ReqId, result: Result<Contact, ApiError>, fx: &mut Vec<Effect>) {
    let kind = WriteKind::NewContact;
    let now = model.now;
    let saving = model.act.saving.remove(&id);
    let overlay_is_this = matches!(&model.overlay, Some(Overlay::Form { saving: Some(s), .. }) if *s == id);
    match result {
        Ok(contact) => {
            settled(model, &contact, saving.as_ref(), overlay_is_this, fx);
            let name = crate::tui::text::sanitize_line(&contact.name);
            model.act.recheck = None;
            recheck::add_created(model, contact, fx);
            model
                .status
                .push(ToastKind::Success, format!("{}: {name}", kind.done()), now);
        }
        Err(e) => {
            // A create that may have happened says so and offers a lookup.
            let maybe = recheck::may_have_applied(&e);
            let shown = if maybe { recheck::offer(&e) } else { e.to_string() };
            let typed = saving.as_ref().and_then(|(_, _, f)| f.value(&FieldId::Identifier));
            recheck::remember(model, typed.filter(|_| maybe));
            failed(model, saving, overlay_is_this, &shown);
            model
                .status
                .push(ToastKind::Error, format!("could not {}: {e}", kind.verb()), now);
        }
    }
}

/// A write or create went through: the index has it, the draft and the
/// form go.
fn settled(
    model: &mut Model,
    contact: &Contact,
    saving: Option<&(String, FormKind, Form)>,
    overlay_is_this: bool,
    fx: &mut Vec<Effect>,
) {
    model.known.learn(contact);
    if model.sync.enabled() {
        // The index has it at once; a pass then brings in what else the
        // write moved.
        fx.push(Effect::Index(IndexCmd::Store(Box::new(contact.clone()))));
        super::notes::after_write(model, fx);
    }
    if let Some((u, fk, _)) = saving {
        model.act.drafts.remove(&(u.clone(), *fk));
    }
    if overlay_is_this {
        model.overlay = None;
    }
}

/// A write or create failed: the form keeps what was typed, as a draft
/// and on screen, with why.
fn failed(model: &mut Model, saving: Option<(String, FormKind, Form)>, overlay_is_this: bool, shown: &str) {
    if let Some((u, fk, mut form)) = saving {
        form.set_busy(false);
        form.set_error(shown.to_string());
        model.act.drafts.insert((u, fk), form);
    }
    if overlay_is_this && let Some(Overlay::Form { form, saving, .. }) = model.overlay.as_mut() {
        *saving = None;
        form.set_busy(false);
        form.set_error(shown.to_string());
    }
}
