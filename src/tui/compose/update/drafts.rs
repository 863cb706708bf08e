//! Drafts kept on disk (`crate::drafts`, shared with `frontdesk mcp`): the
//! open composer's text is written when typing pauses, when it closes and
//! when the app quits; a send deletes it; opening the composer brings a
//! kept draft back; rows of contacts with one carry the `draft` badge.
//! Text read from a draft file is made inert before it reaches the editor.
//! While the app runs the clock looks at the drafts directory every few
//! seconds (one `stat`): a draft another process wrote (an assistant's
//! `draft_reply`) badges its row, one it deleted unbadges it.

use super::super::fx::{ComposeEffect, DRAFT_PAUSE};
use super::super::msg::ComposeMsg;
use super::super::state::{Compose, DRAFT, new_area};
use crate::drafts::Draft;
use crate::tui::shared::{Cx, Note, Out, ToastKind};
use crate::tui::widgets::clean;

type O<'a> = Out<'a, ComposeEffect>;

/// Who wrote a draft kept by the composer.
pub const BY_AGENT: &str = "agent";

fn badge(out: &mut O, uuid: &str, on: bool) {
    out.note(Note::Badge {
        uuid: uuid.to_string(),
        badge: DRAFT,
        on,
    });
}

/// At start: the account's kept drafts badge their rows.
pub fn startup(cx: &Cx, out: &mut O) {
    if let Some(dir) = cx.session.drafts_dir.clone() {
        out.fx(ComposeEffect::ListDrafts { dir });
    }
}

/// The open composer's text changed: it is written once typing pauses.
pub(super) fn edited(st: &mut Compose, out: &mut O) {
    if let Some(uuid) = st.open.clone() {
        changed(st, out, uuid);
    }
}

/// `uuid`'s draft changed (or a send of it failed): it is written once
/// typing pauses.
pub(super) fn changed(st: &mut Compose, out: &mut O, uuid: String) {
    let id = out.id();
    st.dirty = Some((uuid, id));
    out.fx(ComposeEffect::DraftPause { id, after: DRAFT_PAUSE });
}

/// Writes the changed draft now (the composer closes, the app quits).
pub fn flush(st: &mut Compose, cx: &Cx, out: &mut O) {
    if let Some((uuid, _)) = st.dirty.take() {
        keep(st, cx, out, &uuid);
    }
}

/// Writes `uuid`'s draft as the editor holds it; an empty one is deleted.
fn keep(st: &mut Compose, cx: &Cx, out: &mut O, uuid: &str) {
    let text = st.draft(uuid);
    if text.trim().is_empty() {
        return forget(st, cx, out, uuid);
    }
    badge(out, uuid, true);
    if let Some(dir) = cx.session.drafts_dir.clone() {
        st.kept.writing += 1;
        let draft = Draft {
            contact: uuid.to_string(),
            text,
            saved_at: cx.now,
            by: BY_AGENT.into(),
        };
        out.fx(ComposeEffect::SaveDraft { dir, draft });
    }
}

/// Deletes `uuid`'s kept draft and its badge (sent, discarded, emptied).
pub(super) fn forget(st: &mut Compose, cx: &Cx, out: &mut O, uuid: &str) {
    badge(out, uuid, false);
    if let Some(dir) = cx.session.drafts_dir.clone() {
        st.kept.writing += 1;
        out.fx(ComposeEffect::RemoveDraft {
            dir,
            contact: uuid.to_string(),
        });
    }
}

/// The composer opened on `uuid`: with nothing typed for it this session,
/// its kept draft is read.
pub(super) fn opened(st: &Compose, cx: &Cx, out: &mut O, uuid: &str) {
    if st.draft(uuid).is_empty()
        && let Some(dir) = cx.session.drafts_dir.clone()
    {
        out.fx(ComposeEffect::LoadDraft {
            dir,
            contact: uuid.to_string(),
        });
    }
}

/// A send of `contact`'s text goes out: nothing to write while it does (a
/// failure marks it changed again; a success deletes it).
pub(super) fn sending(st: &mut Compose, contact: &str) {
    if st.dirty.as_ref().is_some_and(|(u, _)| u == contact) {
        st.dirty = None;
    }
}

/// A send of `contact`'s text went out: its draft is done with.
pub(super) fn sent(st: &mut Compose, cx: &Cx, out: &mut O, contact: &str) {
    st.drafts.remove(contact);
    if st.dirty.as_ref().is_some_and(|(u, _)| u == contact) {
        st.dirty = None;
    }
    forget(st, cx, out, contact);
}

/// What the drafts' effects answer.
pub(super) fn on_msg(st: &mut Compose, cx: &Cx, out: &mut O, msg: ComposeMsg) {
    match msg {
        ComposeMsg::DraftPause(id) => {
            if st.dirty.as_ref().is_some_and(|(_, due)| *due == id) {
                flush(st, cx, out);
            }
        }
        ComposeMsg::DraftsListed(Ok(drafts)) => {
            for d in drafts.iter().filter(|d| !d.text.trim().is_empty()) {
                badge(out, &d.contact, true);
                st.kept.contacts.insert(d.contact.clone());
            }
            st.kept.listed = true;
        }
        // A write of ours is under way: the listing may not hold it yet,
        // so the directory is listed again at the next look.
        ComposeMsg::DraftsChanged { .. } if st.kept.writing > 0 => st.kept.stamp = None,
        ComposeMsg::DraftsChanged { stamp, drafts } => {
            let fresh = st.kept.stamp != stamp;
            st.kept.stamp = stamp;
            match drafts {
                Ok(drafts) => follow(st, cx, out, drafts),
                // Said once for each change of the directory.
                Err(e) if fresh => out.toast(ToastKind::Error, clean(&e)),
                Err(_) => {}
            }
        }
        ComposeMsg::DraftsUnchanged => {}
        ComposeMsg::DraftKept(result) => {
            st.kept.writing = st.kept.writing.saturating_sub(1);
            if let Err(e) = result {
                out.toast(ToastKind::Error, clean(&e));
            }
        }
        ComposeMsg::DraftLoaded {
            contact,
            result: Ok(Some(d)),
        } => restore(st, cx, out, &contact, d),
        ComposeMsg::DraftLoaded { result: Ok(None), .. } => {}
        ComposeMsg::DraftsListed(Err(e)) | ComposeMsg::DraftLoaded { result: Err(e), .. } => {
            out.toast(ToastKind::Error, clean(&e));
        }
        ComposeMsg::Sent { .. } | ComposeMsg::Status { .. } | ComposeMsg::Edited { .. } => {}
    }
}

/// The clock: every few seconds (once the drafts were listed at start),
/// asks whether the drafts directory changed.
pub fn tick(st: &mut Compose, cx: &Cx, out: &mut O) {
    let Some(dir) = cx.session.drafts_dir.clone() else {
        return;
    };
    if st.kept.check_due(cx.now) {
        st.kept.checked = Some(cx.now);
        out.fx(ComposeEffect::CheckDrafts {
            dir,
            seen: st.kept.stamp.clone(),
        });
    }
}

/// The drafts directory as listed now: a draft another process wrote
/// badges its row (an assistant's is announced), one it deleted unbadges
/// it unless this session holds text for that contact.
fn follow(st: &mut Compose, cx: &Cx, out: &mut O, drafts: Vec<Draft>) {
    let now: std::collections::BTreeSet<String> = drafts
        .iter()
        .filter(|d| !d.text.trim().is_empty())
        .map(|d| d.contact.clone())
        .collect();
    for uuid in st.kept.contacts.difference(&now) {
        if st.draft(uuid).trim().is_empty() {
            badge(out, uuid, false);
        }
    }
    let new: Vec<&Draft> = drafts
        .iter()
        .filter(|d| now.contains(&d.contact) && !st.kept.contacts.contains(&d.contact))
        .collect();
    for d in &new {
        badge(out, &d.contact, true);
    }
    if let Some(d) = new.iter().find(|d| d.by == crate::drafts::ASSISTANT) {
        let name = cx.contacts.label(&d.contact).unwrap_or_else(|| d.contact.clone());
        out.toast(
            ToastKind::Info,
            format!(
                "the assistant drafted a reply to {}: open its composer to read it",
                clean(&name)
            ),
        );
    }
    st.kept.contacts = now;
}

/// A kept draft arrived for the composer open on `contact`: it fills the
/// editor (cursor at its end) unless something was typed meanwhile.
fn restore(st: &mut Compose, cx: &Cx, out: &mut O, contact: &str, d: Draft) {
    let text = crate::text::sanitize(&d.text, true);
    if st.open.as_deref() != Some(contact) || !st.draft(contact).is_empty() || text.trim().is_empty() {
        return;
    }
    let mut area = new_area();
    area.insert_str(text);
    st.drafts.insert(contact.to_string(), area);
    badge(out, contact, true);
    let local = crate::tui::zone::local(d.saved_at, cx.session.tz);
    let today = crate::tui::zone::local(cx.now, cx.session.tz).date_naive() == local.date_naive();
    let when = local.format(if today { "%H:%M" } else { "%b %-d %H:%M" });
    let toast = if d.by == crate::drafts::ASSISTANT {
        format!("the assistant's draft from {when} restored: read it before sending")
    } else {
        format!("draft from {when} restored")
    };
    out.toast(ToastKind::Info, toast);
}
