//! `C-o` in the composer: a form asks for the file's URL and its kind
//! (guessed from the extension unless chosen); the reply then carries it
//! and its text becomes the caption. A URL that is not http(s) is refused
//! in the form, which keeps what was typed. An emptied URL takes the file
//! off.

use super::super::attach::{Attachment, GUESS, KINDS, kind_of};
use super::super::fx::ComposeEffect;
use super::super::state::{Compose, Stage};
use crate::api::is_web_link;
use crate::tui::form::{FieldId, FieldKind, FieldSpec, Form, FormOutcome, FormValue, TextCheck};
use crate::tui::shared::{Cx, Out, ToastKind};

/// Opens the form, with the file already on the reply when there is one.
pub fn open(st: &mut Compose) {
    let Some(uuid) = st.open.clone() else { return };
    let had = st.attachments.get(&uuid);
    let url = had.map(|a| a.url.clone()).unwrap_or_default();
    let mut options = vec![GUESS.to_string()];
    options.extend(KINDS.iter().map(|k| k.to_string()));
    let fields = vec![
        FieldSpec {
            key: FieldId::Url,
            label: "URL".into(),
            kind: FieldKind::Text {
                value: url,
                check: TextCheck::Any,
            },
            required: false,
            help: Some("an http(s) address the service can fetch; empty takes the file off".into()),
        },
        FieldSpec {
            key: FieldId::MediaKind,
            label: "Kind".into(),
            kind: FieldKind::Choice {
                options,
                selected: Some(had.map_or(GUESS, |a| a.kind).to_string()),
                allow_none: false,
                allow_custom: false,
            },
            required: true,
            help: Some("the reply's text is the caption".into()),
        },
    ];
    st.stage = Stage::Attach(Form::new("Attach a file by URL", fields));
}

/// A key on the form.
pub fn key(st: &mut Compose, cx: &Cx, out: &mut Out<ComposeEffect>, key: crossterm::event::KeyEvent) {
    let Stage::Attach(form) = &mut st.stage else { return };
    match form.handle_key(cx.keys, key) {
        FormOutcome::Pending => {}
        FormOutcome::Cancelled => st.stage = Stage::Edit,
        FormOutcome::Submitted => {
            let url = match form.value(&FieldId::Url) {
                Some(FormValue::Text(u)) => u.trim().to_string(),
                _ => String::new(),
            };
            let chosen = match form.value(&FieldId::MediaKind) {
                Some(FormValue::One(k)) => k,
                _ => None,
            };
            let Some(uuid) = st.open.clone() else { return };
            if url.is_empty() {
                st.stage = Stage::Edit;
                if st.attachments.remove(&uuid).is_some() {
                    out.toast(ToastKind::Info, "the file is off the reply");
                }
                return;
            }
            if !is_web_link(&url) {
                form.set_error("the service fetches the file: give an http(s) URL (upload it somewhere first)");
                return;
            }
            let kind = kind_of(chosen.as_deref(), &url);
            st.attachments.insert(uuid, Attachment { kind, url });
            st.stage = Stage::Edit;
        }
    }
}
