//! Opening the composer, its keys and pasted text.

use crossterm::event::KeyEvent;

use super::super::fx::ComposeEffect;
use super::super::state::{Compose, Stage};
use super::{attach, drafts, editor, send, snippets, templates};
use crate::tui::form::{FieldId, FormOutcome, FormValue, PickOutcome};
use crate::tui::keymap::{Mode, ModeAction as M};
use crate::tui::shared::{Cx, Note, Out, Pane, ToastKind};

/// `R`: opens the composer on the selected contact, with its draft (the
/// one typed this session, else the one kept on disk). The root has loaded
/// the selected contact's thread first.
pub fn open(st: &mut Compose, cx: &Cx, out: &mut Out<ComposeEffect>) {
    let Some(uuid) = cx.selected else {
        return out.toast(ToastKind::Info, "select a contact first");
    };
    st.open = Some(uuid.to_string());
    st.stage = Stage::Edit;
    st.area_mut();
    st.back = Some(cx.focus);
    st.since = cx.colleagues.heard();
    drafts::opened(st, cx, out, uuid);
    out.note(Note::Focus(Pane::Thread));
}

/// Pasted text goes into the open composer; false when it is closed.
pub fn paste(st: &mut Compose, out: &mut Out<ComposeEffect>, text: &str) -> bool {
    if !st.is_open() {
        return false;
    }
    match &mut st.stage {
        Stage::Edit => {
            let text = crate::text::sanitize(text, true);
            if let Some(a) = st.area_mut()
                && !text.is_empty()
            {
                a.insert_str(text);
                drafts::edited(st, out);
            }
        }
        Stage::Templates(p) => p.handle_paste(text),
        Stage::Snippets { picker, .. } => snippets::paste(picker, text),
        Stage::Values { form, .. } | Stage::Attach(form) => form.handle_paste(text),
        Stage::LoadingTemplates | Stage::Colleague(_) | Stage::Preview { .. } => {}
    }
    true
}

/// Closes the composer; its text is written down as the contact's draft
/// (an emptied one goes).
fn close(st: &mut Compose, cx: &Cx, out: &mut Out<ComposeEffect>) {
    st.stage = Stage::Edit;
    st.held_template = None;
    drafts::flush(st, cx, out);
    st.open = None;
    if let Some(back) = st.back.take() {
        out.note(Note::Focus(back));
    }
}

/// A key for the open composer; `agent` is the agent's name, when known
/// (a snippet's `{{agent.name}}`).
pub fn key(st: &mut Compose, cx: &Cx, out: &mut Out<ComposeEffect>, key: KeyEvent, agent: Option<&str>) {
    match &mut st.stage {
        Stage::Edit => match cx.keys.mode_action_for(Mode::Compose, &key) {
            // Esc keeps the text as the contact's draft, without asking:
            // drafts are for keeping (emptied, it goes).
            Some(M::Cancel) => close(st, cx, out),
            Some(M::Send) => send::send_text(st, cx, out, false),
            Some(M::Templates) => templates::open_templates(st, cx, out),
            Some(M::Editor) => editor::open(st, out),
            Some(M::Attach) => attach::open(st),
            Some(M::Snippet) if snippets::pressed(st, out, &key) => {}
            _ => {
                let uuid = st.open.clone().unwrap_or_default();
                let before = st.draft(&uuid);
                if let Some(a) = st.area_mut() {
                    crate::tui::form::textarea_key(a, cx.keys, key);
                }
                if st.draft(&uuid) != before {
                    drafts::edited(st, out);
                }
            }
        },
        // "dana replied 20 s ago: send anyway? y/n".
        // A held template goes (yes) or back to its filled form (no).
        Stage::Colleague(_) => match cx.keys.mode_action_for(Mode::Confirm, &key) {
            Some(M::Yes) => {
                st.stage = Stage::Edit;
                match st.held_template.take() {
                    Some(h) => send::send_template(st, cx, out, &h.template, h.values, None, true),
                    None => send::send_text(st, cx, out, true),
                }
            }
            Some(M::No) => {
                st.stage = match st.held_template.take() {
                    Some(super::super::state::HeldTemplate {
                        template,
                        values,
                        form: Some(form),
                    }) => Stage::Preview { template, values, form },
                    _ => Stage::Edit,
                };
            }
            _ => {}
        },
        Stage::LoadingTemplates => {
            if cx.keys.mode_action_for(Mode::Compose, &key) == Some(M::Cancel) {
                st.stage = Stage::Edit;
            }
        }
        Stage::Templates(picker) => match picker.handle_key(cx.keys, key) {
            PickOutcome::Pending => {}
            PickOutcome::Cancelled => st.stage = Stage::Edit,
            PickOutcome::Chosen(uuid) => templates::choose_template(st, cx, out, &uuid),
        },
        Stage::Snippets { .. } => snippets::key(st, cx, out, key, agent),
        Stage::Values { template, form } => match form.handle_key(cx.keys, key) {
            FormOutcome::Pending => {}
            FormOutcome::Cancelled => st.stage = Stage::Edit,
            FormOutcome::Submitted => {
                let template = template.clone();
                let values: Vec<String> = super::placeholders::placeholders(&template.text)
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
                // Shown filled in first: a second key sends it.
                if let Stage::Values { template, form } = std::mem::replace(&mut st.stage, Stage::Edit) {
                    st.stage = Stage::Preview { template, values, form };
                }
            }
        },
        Stage::Preview { .. } => preview_key(st, cx, out, key),
        Stage::Attach(_) => attach::key(st, cx, out, key),
    }
}

/// A key on the filled template: the values form's done key (Enter) or
/// the composer's send keys send it, the composer's cancel goes back to
/// the values as typed.
fn preview_key(st: &mut Compose, cx: &Cx, out: &mut Out<ComposeEffect>, key: KeyEvent) {
    let done = cx.keys.mode_action_for(Mode::Form, &key) == Some(M::Done);
    let action = cx.keys.mode_action_for(Mode::Compose, &key);
    let send = done || action == Some(M::Send);
    if !send && action != Some(M::Cancel) {
        return;
    }
    let Stage::Preview { template, values, form } = std::mem::replace(&mut st.stage, Stage::Edit) else {
        return;
    };
    if send {
        send::send_template(st, cx, out, &template, values, Some(form), false);
    } else {
        st.stage = Stage::Values { template, form };
    }
}
