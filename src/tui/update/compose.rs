//! Replying from the thread: the composer's keys, sending, the status
//! polls, the 24-hour rule and the template picker.

use crate::tui::form::FieldId;
use crossterm::event::KeyEvent;

use crate::api::{ApiError, DeliveryStatus, SendMessage, Template};
use crate::tui::effect::Effect;
use crate::tui::form::{
    FieldKind, FieldSpec, Form, FormOutcome, FormValue, FuzzyPicker, PickItem, PickOutcome, TextCheck,
};
use crate::tui::keymap::{Mode, ModeAction as M};
use crate::tui::model::catalog::Part;
use crate::tui::model::compose::{Outgoing, Stage};
use crate::tui::model::{Model, Pane, ToastKind};
use crate::tui::msg::ReqId;
use crate::tui::reply::{ComposeEffect, ComposeMsg, MAX_POLLS, POLL_EVERY};

/// What the 24-hour rule means for the agent.
pub const TEMPLATE_HINT: &str = "more than 24 h since the customer wrote: send a template instead (Ctrl-T)";
pub const NOT_OFFERED: &str = "this server does not offer sending messages";

/// `R`: opens the composer on the selected contact, with its draft.
pub(crate) fn open(model: &mut Model, fx: &mut Vec<Effect>) {
    let now = model.now;
    let Some(uuid) = model.list.selected_uuid() else {
        return model.status.push(ToastKind::Info, "select a contact first", now);
    };
    if model.thread.contact.as_deref() != Some(uuid.as_str()) {
        super::select::load_selected(model, fx);
    }
    model.compose.open = Some(uuid);
    model.compose.stage = Stage::Edit;
    model.compose.area_mut();
    model.compose.back = Some(model.focus);
    model.focus = Pane::Thread;
}

/// Whether keys go to the composer.
pub(crate) fn active(model: &Model) -> bool {
    model.overlay.is_none() && model.compose.is_open()
}

pub(crate) fn paste(model: &mut Model, text: &str) -> bool {
    if !active(model) {
        return false;
    }
    match &mut model.compose.stage {
        Stage::Edit => {
            if let Some(a) = model.compose.area_mut() {
                a.insert_str(crate::text::sanitize(text, true));
            }
        }
        Stage::Templates(p) => p.handle_paste(text),
        Stage::Values { form, .. } => form.handle_paste(text),
        Stage::LoadingTemplates => {}
    }
    true
}

pub(crate) fn key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) {
    match &mut model.compose.stage {
        Stage::Edit => match model.keys.mode_action_for(Mode::Compose, &key) {
            Some(M::Cancel) => {
                model.compose.open = None;
                model.focus = model.compose.back.take().unwrap_or(model.focus);
            }
            Some(M::Send) => send_text(model, fx),
            Some(M::Templates) => open_templates(model, fx),
            _ => {
                if let Some(a) = model.compose.area_mut() {
                    crate::tui::form::textarea_key(a, key, true);
                }
            }
        },
        Stage::LoadingTemplates => {
            if model.keys.mode_action_for(Mode::Compose, &key) == Some(M::Cancel) {
                model.compose.stage = Stage::Edit;
            }
        }
        Stage::Templates(picker) => match picker.handle_key(key) {
            PickOutcome::Pending => {}
            PickOutcome::Cancelled => model.compose.stage = Stage::Edit,
            PickOutcome::Chosen(uuid) => choose_template(model, &uuid, fx),
        },
        Stage::Values { template, form } => match form.handle_key(key) {
            FormOutcome::Pending => {}
            FormOutcome::Cancelled => model.compose.stage = Stage::Edit,
            FormOutcome::Submitted => {
                let template = template.clone();
                let values: Vec<String> = placeholders(&template.text)
                    .iter()
                    .map(|n| match form.value(&FieldId::Placeholder(*n)) {
                        Some(FormValue::Text(v)) => v,
                        _ => String::new(),
                    })
                    .collect();
                if values.iter().any(|v| v.trim().is_empty()) {
                    form.set_error("every placeholder needs a value");
                    return;
                }
                model.compose.stage = Stage::Edit;
                send_template(model, &template, values, fx);
            }
        },
    }
}

/// `{{n}}` placeholders of a template, distinct and in order of n.
pub fn placeholders(text: &str) -> Vec<u32> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("{{") {
        rest = &rest[i + 2..];
        if let Some(j) = rest.find("}}")
            && let Ok(n) = rest[..j].trim().parse::<u32>()
        {
            out.push(n);
            rest = &rest[j + 2..];
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The template's text with its values in place, for the thread.
pub fn fill(text: &str, values: &[String]) -> String {
    let mut out = text.to_string();
    for (n, v) in placeholders(text).iter().zip(values) {
        out = out.replace(&format!("{{{{{n}}}}}", n = n), v);
    }
    out
}

/// `to` and `from` of the open contact, or the reason there are none.
fn addressing(model: &Model, uuid: &str) -> Result<(String, String), String> {
    let c = model.list.get(uuid).ok_or("the contact is no longer loaded")?;
    if c.phone_number.trim().is_empty() {
        return Err("this contact has no phone number to reply to".into());
    }
    let from = if c.source.trim().is_empty() {
        "messaging_app".to_string()
    } else {
        c.source.to_string()
    };
    Ok((c.phone_number.to_string(), from))
}

fn fail(model: &mut Model, uuid: &str, msg: String) {
    let now = model.now;
    model.compose.errors.insert(uuid.to_string(), msg.clone());
    model.status.push(ToastKind::Error, msg, now);
}

fn send_text(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(uuid) = model.compose.open.clone() else { return };
    let text = model.compose.draft(&uuid);
    if text.trim().is_empty() {
        let now = model.now;
        return model.status.push(ToastKind::Info, "nothing to send", now);
    }
    let (to, from) = match addressing(model, &uuid) {
        Ok(a) => a,
        Err(e) => return fail(model, &uuid, e),
    };
    send(model, &uuid, SendMessage::text(to, from, text.clone()), text, true, fx);
}

fn send_template(model: &mut Model, template: &Template, values: Vec<String>, fx: &mut Vec<Effect>) {
    let Some(uuid) = model.compose.open.clone() else { return };
    let (to, from) = match addressing(model, &uuid) {
        Ok(a) => a,
        Err(e) => return fail(model, &uuid, e),
    };
    let shown = fill(&template.text, &values);
    let body = SendMessage::template(to, from, template.uuid.clone(), values);
    send(model, &uuid, body, shown, false, fx);
}

fn send(model: &mut Model, uuid: &str, body: SendMessage, shown: String, is_text: bool, fx: &mut Vec<Effect>) {
    let now = model.now;
    if model.compose.sending(uuid) {
        return model
            .status
            .push(ToastKind::Info, "still sending the last message", now);
    }
    let id = model.next_id();
    model.compose.errors.remove(uuid);
    model.compose.outbox.push(Outgoing {
        contact: uuid.to_string(),
        text: shown,
        at: now,
        sending: Some(id),
        uuid: None,
        status: None,
        poll: None,
        polls: 0,
        is_text,
    });
    model.thread.scroll_to_newest();
    fx.push(Effect::Compose(ComposeEffect::Send {
        id,
        contact: uuid.to_string(),
        body,
    }));
}

/// Ctrl-T: the picker over the catalog's approved templates, fetched
/// first if they never were (or the last fetch failed).
fn open_templates(model: &mut Model, fx: &mut Vec<Effect>) {
    match model.catalog.approved_templates() {
        Some(list) => show_picker(model, &list),
        None => {
            if !model.catalog.loading(Part::Templates) {
                super::catalog::fetch(model, Part::Templates, fx);
            }
            model.compose.stage = Stage::LoadingTemplates;
        }
    }
}

/// The catalog's templates answered: a composer waiting for them shows
/// the picker, or why there is none.
pub(crate) fn templates_arrived(model: &mut Model) {
    if !matches!(model.compose.stage, Stage::LoadingTemplates) {
        return;
    }
    match (
        model.catalog.approved_templates(),
        model.catalog.templates.error.clone(),
    ) {
        (Some(list), _) => show_picker(model, &list),
        (None, error) => {
            model.compose.stage = Stage::Edit;
            let uuid = model.compose.open.clone().unwrap_or_default();
            fail(model, &uuid, error.unwrap_or_else(|| "could not load templates".into()));
        }
    }
}

fn show_picker(model: &mut Model, list: &[Template]) {
    if list.is_empty() {
        model.compose.stage = Stage::Edit;
        let uuid = model.compose.open.clone().unwrap_or_default();
        return fail(model, &uuid, "there are no approved templates".into());
    }
    let items = list
        .iter()
        .map(|t| PickItem {
            label: crate::text::sanitize_line(if t.title.is_empty() { &t.uuid } else { &t.title }),
            detail: crate::text::sanitize_line(&t.text),
            key: t.uuid.clone(),
        })
        .collect();
    model.compose.stage = Stage::Templates(FuzzyPicker::new("Send a template", items));
}

fn choose_template(model: &mut Model, uuid: &str, fx: &mut Vec<Effect>) {
    let Some(t) = model
        .catalog
        .approved_templates()
        .and_then(|l| l.into_iter().find(|t| t.uuid == uuid))
    else {
        model.compose.stage = Stage::Edit;
        return;
    };
    let ph = placeholders(&t.text);
    if ph.is_empty() {
        model.compose.stage = Stage::Edit;
        return send_template(model, &t, Vec::new(), fx);
    }
    let fields = ph
        .iter()
        .map(|n| FieldSpec {
            key: FieldId::Placeholder(*n),
            label: format!("{{{{{n}}}}}"),
            kind: FieldKind::Text {
                value: String::new(),
                check: TextCheck::Any,
            },
            required: true,
            help: None,
        })
        .collect();
    let title = format!("Values for “{}”", crate::text::sanitize_line(&t.title));
    let form = Form::new(title, fields);
    model.compose.stage = Stage::Values { template: t, form };
}

/// Results of the composer's effects.
pub(crate) fn on_msg(model: &mut Model, msg: ComposeMsg, fx: &mut Vec<Effect>) {
    match msg {
        ComposeMsg::Sent { id, contact, result } => sent(model, id, &contact, result, fx),
        ComposeMsg::Status { id, uuid, result } => {
            let Some(o) = model
                .compose
                .outbox
                .iter_mut()
                .find(|o| o.poll == Some(id) && o.uuid.as_deref() == Some(uuid.as_str()))
            else {
                return;
            };
            o.poll = None;
            o.polls += 1;
            if let Ok(r) = result {
                o.status = Some(r.status);
            }
            let done = matches!(o.status, Some(DeliveryStatus::Read | DeliveryStatus::Failed));
            if !done && o.polls < MAX_POLLS {
                let next = model.next_id();
                schedule_poll(model, &uuid, next, fx);
            }
        }
    }
}

fn schedule_poll(model: &mut Model, uuid: &str, id: ReqId, fx: &mut Vec<Effect>) {
    if let Some(o) = model
        .compose
        .outbox
        .iter_mut()
        .find(|o| o.uuid.as_deref() == Some(uuid))
    {
        o.poll = Some(id);
        fx.push(Effect::Compose(ComposeEffect::PollStatus {
            id,
            uuid: uuid.to_string(),
            after: POLL_EVERY,
        }));
    }
}

fn sent(
    model: &mut Model,
    id: ReqId,
    contact: &str,
    result: Result<crate::api::SentMessage, ApiError>,
    fx: &mut Vec<Effect>,
) {
    let Some(i) = model
        .compose
        .outbox
        .iter()
        .position(|o| o.sending == Some(id) && o.contact == contact)
    else {
        return; // not ours, or already answered
    };
    let now = model.now;
    match result {
        Ok(s) => {
            let o = &mut model.compose.outbox[i];
            o.sending = None;
            o.uuid = Some(s.uuid.clone());
            o.status = Some(s.status);
            if o.is_text {
                model.compose.drafts.remove(contact);
            }
            model.compose.errors.remove(contact);
            model.compose.needs_template.remove(contact);
            model.status.push(ToastKind::Success, "message sent", now);
            let poll = model.next_id();
            schedule_poll(model, &s.uuid, poll, fx);
            // The conversation moved to the top: the index learns it now.
            super::notes::after_write(model, fx);
        }
        Err(e) => {
            let o = model.compose.outbox.remove(i);
            let msg = match e {
                ApiError::Validation { .. } if o.is_text => {
                    model.compose.needs_template.insert(contact.to_string(), true);
                    TEMPLATE_HINT.to_string()
                }
                ApiError::NotOffered { .. } => NOT_OFFERED.to_string(),
                e => format!("could not send: {e}"),
            };
            fail(model, contact, msg);
        }
    }
}
