//! `$EDITOR` on the reply: the key asks the app loop to run the editor on
//! the draft (it owns the terminal); what the editor saved replaces the
//! draft, a failure leaves it as it was and says why.

use super::super::fx::ComposeEffect;
use super::super::state::{Compose, new_area};
use super::drafts;
use crate::tui::shared::{Out, ToastKind};
use crate::tui::widgets::clean;

type O<'a> = Out<'a, ComposeEffect>;

/// The editor key: the open draft goes to the editor.
pub(super) fn open(st: &mut Compose, out: &mut O) {
    let Some(contact) = st.open.clone() else { return };
    let text = st.draft(&contact);
    out.fx(ComposeEffect::Editor { contact, text });
}

/// The editor returned: its text is the draft (cursor at its end).
pub(super) fn edited(st: &mut Compose, out: &mut O, contact: String, result: Result<String, String>) {
    match result {
        Ok(text) => {
            let text = crate::text::sanitize(&text, true);
            if text == st.draft(&contact) {
                return;
            }
            let mut area = new_area();
            area.insert_str(&text);
            st.drafts.insert(contact.clone(), area);
            drafts::changed(st, out, contact);
        }
        Err(e) => out.toast(ToastKind::Error, clean(&e)),
    }
}
