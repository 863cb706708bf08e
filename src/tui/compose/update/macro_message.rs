//! What other parts ask of the composer: a macro's message (its `snippet`
//! and `send` steps) filled for one contact as `/` fills it, sent through
//! the composer's own send (the outbox, the delivery polls, the 24-hour
//! rule's errors) or put in the composer for the agent to read first; and
//! the composer's actions chosen from the palette.

use super::super::fx::ComposeEffect;
use super::super::state::{Compose, Stage, new_area};
use super::{drafts, editor, send, snippets, templates};
use crate::api::SendMessage;
use crate::macros::Step;
use crate::snippets::{Filled, fill};
use crate::tui::keymap::ModeAction as M;
use crate::tui::shared::{Cx, Out, ToastKind};

type O<'a> = Out<'a, ComposeEffect>;

/// The text a macro's message step makes for `uuid`: the snippet it names
/// (`Step::Snippet`) or its own text (`Step::Send(Some)`), variables filled
/// from the contact; a variable with no value stays as written and is
/// named in `missing`. An error when no snippet has that name.
pub fn fill_for(st: &Compose, cx: &Cx, uuid: &str, step: &Step, agent: Option<&str>) -> Result<Filled, String> {
    let text = match step {
        Step::Snippet(name) => match st.snippets.get(name) {
            Some(s) => s.text.clone(),
            None => return Err(format!("no snippet named {}", crate::text::sanitize_line(name))),
        },
        Step::Send(Some(text)) => text.clone(),
        _ => return Err("this step makes no message".into()),
    };
    Ok(fill(&text, &snippets::vars(cx, uuid, agent)))
}

/// Sends `text` to `uuid` as the composer sends a reply (its draft, if
/// any, is left alone); or why it cannot go.
pub fn send_for(st: &mut Compose, cx: &Cx, out: &mut O, uuid: &str, text: &str) -> Result<(), String> {
    if st.sending(uuid) {
        return Err("still sending the last message".into());
    }
    let (to, from) = send::addressing(cx, uuid)?;
    let body = SendMessage::text(to, from, text.to_string());
    send::send(st, cx, out, uuid, body, text.to_string(), false);
    Ok(())
}

/// Puts `filled` in `uuid`'s composer for the agent to read and send: the
/// composer opens on it when it is the selected contact and no other is
/// open; else the text goes at the end of its draft (its row says
/// `draft`, `R` opens it). A draft kept on disk and not read yet is never
/// overwritten: the composer opens on it instead, and says why.
pub fn fill_in(st: &mut Compose, cx: &Cx, out: &mut O, uuid: &str, filled: &Filled) -> Result<(), String> {
    let kept_unread = st.draft(uuid).is_empty() && st.kept.contacts.contains(uuid);
    let here = cx.selected == Some(uuid) && st.open.as_deref().is_none_or(|o| o == uuid);
    if here {
        if st.open.is_none() {
            super::keys::open(st, cx, out);
        }
        if kept_unread {
            return Err("a draft is kept for this contact: it opens instead; / puts the snippet in".into());
        }
        st.stage = Stage::Edit;
        snippets::insert(st, out, filled);
        return Ok(());
    }
    if kept_unread {
        return Err("a draft is kept for this contact: open it (R) and put the snippet in with /".into());
    }
    // Another contact's pending draft write is made now, not replaced.
    if st.dirty.as_ref().is_some_and(|(u, _)| u != uuid) {
        drafts::flush(st, cx, out);
    }
    let area = st.drafts.entry(uuid.to_string()).or_insert_with(new_area);
    if !area.is_empty() {
        area.move_cursor(ratatui_textarea::CursorMove::Bottom);
        area.move_cursor(ratatui_textarea::CursorMove::End);
        area.insert_newline();
    }
    area.insert_str(&filled.text);
    drafts::changed(st, out, uuid.to_string());
    out.toast(ToastKind::Info, "the text is in the contact's draft: R opens it");
    Ok(())
}

/// A composer action chosen from the palette, on the open composer (the
/// root opened it): the editor, the snippet picker, the templates.
pub fn run_action(st: &mut Compose, cx: &Cx, out: &mut O, action: M) {
    if !st.is_open() {
        return;
    }
    st.stage = Stage::Edit;
    match action {
        M::Editor => editor::open(st, out),
        M::Snippet if st.snippets.items.is_empty() => out.toast(ToastKind::Info, snippets::NO_SNIPPETS),
        M::Snippet => snippets::show_picker(st, None),
        M::Templates => templates::open_templates(st, cx, out),
        M::Attach => super::attach::open(st),
        M::Send => send::send_text(st, cx, out, false),
        _ => {}
    }
}
