//! Sending: a text or a template to the open contact, the send's answer,
//! the delivery status polls and the 24-hour rule.

use super::super::fx::{ComposeEffect, MAX_POLLS, POLL_EVERY};
use super::super::msg::ComposeMsg;
use super::super::state::{Compose, HeldTemplate, Outgoing, Stage};
use crate::api::{ApiError, DeliveryStatus, SendMessage, SentMessage, Template};
use crate::tui::shared::{Cx, Note, Out, ToastKind};

/// Added to the service's own words when it refuses a free text (the
/// 24-hour rule, or anything else it says): a template may still go.
pub const TEMPLATE_HINT: &str = "Ctrl-T sends a template";
pub const NOT_OFFERED: &str = "this server does not offer sending messages";

/// `to` and `from` of the open contact, or the reason there are none.
/// The send itself reads the contact again and goes from its channel, to
/// its phone number or else its bsuid (`Client::send_to_contact`): an
/// empty phone number here is not a refusal.
pub(super) fn addressing(cx: &Cx, uuid: &str) -> Result<(String, String), String> {
    let c = cx.contacts.contact(uuid).ok_or("the contact is no longer loaded")?;
    let from = if c.source.trim().is_empty() {
        "messaging_app".to_string()
    } else {
        c.source.to_string()
    };
    Ok((c.phone_number.to_string(), from))
}

/// What the service said of a refused send, made inert: its message alone
/// when it gave one without field errors.
fn own_words(e: &ApiError) -> String {
    let said = match e {
        ApiError::Validation { message, fields } if fields.is_empty() && !message.trim().is_empty() => message.clone(),
        e => e.to_string(),
    };
    crate::text::sanitize_line(&said)
}

/// The composer of `uuid` shows `msg` under its editor, and a toast.
pub(super) fn fail(st: &mut Compose, out: &mut Out<ComposeEffect>, uuid: &str, msg: String) {
    st.errors.insert(uuid.to_string(), msg.clone());
    out.toast(ToastKind::Error, msg);
}

/// Sends the draft; unless `anyway`, first asks when a colleague sent to
/// this customer since the composer opened or is answering now.
pub(super) fn send_text(st: &mut Compose, cx: &Cx, out: &mut Out<ComposeEffect>, anyway: bool) {
    let Some(uuid) = st.open.clone() else { return };
    let text = st.draft(&uuid);
    let file = st.attachments.get(&uuid).cloned();
    if text.trim().is_empty() && file.is_none() {
        return out.toast(ToastKind::Info, "nothing to send");
    }
    if !anyway && let Some(why) = cx.colleagues.before_send(&uuid, st.since, cx.now) {
        st.stage = Stage::Colleague(why);
        return;
    }
    // What a colleague did before this send was seen: asked about once.
    st.since = cx.colleagues.heard();
    let (to, from) = match addressing(cx, &uuid) {
        Ok(a) => a,
        Err(e) => return fail(st, out, &uuid, e),
    };
    // A file by URL goes with the text as its caption (`C-o`).
    let (body, shown) = match &file {
        Some(f) => (
            SendMessage::media(to, from, f.kind, f.url.clone(), text.clone()),
            f.shown(&text),
        ),
        None => (SendMessage::text(to, from, text.clone()), text),
    };
    send(st, cx, out, &uuid, body, shown, true);
}

/// Sends a template; unless `anyway`, first asks (as for a text) when a
/// colleague sent to this customer since the composer opened or is
/// answering now, holding the template (and `form`, its values as typed)
/// for the answer.
pub(super) fn send_template(
    st: &mut Compose,
    cx: &Cx,
    out: &mut Out<ComposeEffect>,
    template: &Template,
    values: Vec<String>,
    form: Option<crate::tui::form::Form>,
    anyway: bool,
) {
    let Some(uuid) = st.open.clone() else { return };
    if !anyway && let Some(why) = cx.colleagues.before_send(&uuid, st.since, cx.now) {
        st.held_template = Some(HeldTemplate {
            template: template.clone(),
            values,
            form,
        });
        st.stage = Stage::Colleague(why);
        return;
    }
    st.since = cx.colleagues.heard();
    let (to, from) = match addressing(cx, &uuid) {
        Ok(a) => a,
        Err(e) => return fail(st, out, &uuid, e),
    };
    let shown = super::placeholders::fill(&template.text, &values);
    let body = SendMessage::template(to, from, template.uuid.clone(), values);
    send(st, cx, out, &uuid, body, shown, false);
}

pub(super) fn send(
    st: &mut Compose,
    cx: &Cx,
    out: &mut Out<ComposeEffect>,
    uuid: &str,
    body: SendMessage,
    shown: String,
    is_text: bool,
) {
    if st.sending(uuid) {
        return out.toast(ToastKind::Info, "still sending the last message");
    }
    let id = out.id();
    if is_text {
        super::drafts::sending(st, uuid);
    }
    st.errors.remove(uuid);
    st.outbox.push(Outgoing {
        contact: uuid.to_string(),
        text: shown,
        at: cx.now,
        sending: Some(id),
        uuid: None,
        status: None,
        poll: None,
        polls: 0,
        is_text,
    });
    out.note(Note::Sending {
        contact: uuid.to_string(),
    });
    out.fx(ComposeEffect::Send {
        id,
        contact: uuid.to_string(),
        body,
    });
}

/// Results of the composer's effects.
pub fn on_msg(st: &mut Compose, cx: &Cx, out: &mut Out<ComposeEffect>, msg: ComposeMsg) {
    match msg {
        ComposeMsg::Sent { id, contact, result } => sent(st, cx, out, id, &contact, result),
        ComposeMsg::Status { id, uuid, result } => {
            let Some(o) = st
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
                schedule_poll(st, out, &uuid);
            }
        }
        ComposeMsg::Edited { contact, result } => super::editor::edited(st, out, contact, result),
        other => super::drafts::on_msg(st, cx, out, other),
    }
}

fn schedule_poll(st: &mut Compose, out: &mut Out<ComposeEffect>, uuid: &str) {
    let id = out.id();
    if let Some(o) = st.outbox.iter_mut().find(|o| o.uuid.as_deref() == Some(uuid)) {
        o.poll = Some(id);
        out.fx(ComposeEffect::PollStatus {
            id,
            uuid: uuid.to_string(),
            after: POLL_EVERY,
        });
    }
}

fn sent(
    st: &mut Compose,
    cx: &Cx,
    out: &mut Out<ComposeEffect>,
    id: crate::tui::shared::ReqId,
    contact: &str,
    result: Result<SentMessage, ApiError>,
) {
    let Some(i) = st
        .outbox
        .iter()
        .position(|o| o.sending == Some(id) && o.contact == contact)
    else {
        return; // not ours, or already answered
    };
    match result {
        Ok(s) => {
            let o = &mut st.outbox[i];
            o.sending = None;
            o.uuid = Some(s.uuid.clone());
            o.status = Some(s.status);
            let (text, at, is_text) = (o.text.clone(), o.at, o.is_text);
            if is_text {
                super::drafts::sent(st, cx, out, contact);
                st.attachments.remove(contact);
            }
            st.errors.remove(contact);
            st.needs_template.remove(contact);
            out.toast(ToastKind::Success, "message sent");
            schedule_poll(st, out, &s.uuid);
            // The conversation moved to the top: the index learns it now,
            // and the row shows it as ours at once.
            out.note(Note::Sent {
                contact: contact.to_string(),
                text,
                at,
            });
        }
        Err(e) => {
            let o = st.outbox.remove(i);
            if o.is_text {
                // Not sent: the draft is written down again.
                super::drafts::changed(st, out, contact.to_string());
            }
            // The service's own words, whatever it refused for.
            let msg = match e {
                e @ ApiError::Validation { .. } if o.is_text => {
                    st.needs_template.insert(contact.to_string(), true);
                    format!("not sent: {} · {TEMPLATE_HINT}", own_words(&e))
                }
                ApiError::NotOffered { .. } => NOT_OFFERED.to_string(),
                e => format!("could not send: {}", crate::text::sanitize_line(&e.to_string())),
            };
            // A send for a contact whose composer is not open (a macro's):
            // the toast names who it was for.
            if st.open.as_deref() != Some(contact)
                && let Some(name) = cx.contacts.label(contact)
            {
                st.errors.insert(contact.to_string(), msg.clone());
                return out.toast(
                    ToastKind::Error,
                    format!("{}: {msg}", crate::text::sanitize_line(&name)),
                );
            }
            fail(st, out, contact, msg);
        }
    }
}
