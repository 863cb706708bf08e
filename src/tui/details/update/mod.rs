//! The details pane's behaviour, one file per panel: the contact (its
//! full record, scrolling, the chat link), its bot, and my status.

mod bot;
mod contact;
mod me;

use super::fx::DetailsEffect;
use super::msg::DetailsMsg;
use super::state::Details;
use crate::tui::shared::{Cx, Note, Out};

pub use bot::toggle_bot;
pub use contact::{copy_link, open, scroll};
pub use me::{custom_status_picker, set_custom_status, toggle_availability};

/// Results of the pane's requests.
pub fn on_msg(st: &mut Details, cx: &Cx, out: &mut Out<DetailsEffect>, msg: DetailsMsg) {
    match msg {
        DetailsMsg::ContactLoaded { id, uuid, result } => contact::loaded(st, cx, out, id, &uuid, result),
        DetailsMsg::BotLoaded { id, uuid, result } => bot::loaded(st, out, id, &uuid, result),
        DetailsMsg::BotSet { id, uuid, result } => bot::set(st, out, id, &uuid, result),
        DetailsMsg::UserStatusSet { id, result } => me::status_set(&mut st.me, out, id, result),
        DetailsMsg::CustomStatusesLoaded(result) => {
            st.me.statuses = Some(result.map_err(|e| e.to_string()));
        }
        DetailsMsg::TeamMembersLoaded { result } => {
            if let Ok(members) = result {
                for m in members {
                    // Members are the collaborators the assign form offers.
                    out.note(Note::Collaborator {
                        email: m.email.clone(),
                        name: m.name.clone(),
                        available: m.available,
                    });
                    me::learn_my_status(&mut st.me, &m);
                }
            }
        }
    }
}
