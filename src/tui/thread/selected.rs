//! The message the agent picked in the thread.

use super::effect::ThreadEffect;
use super::state::Thread;
use crate::api::Message;
use crate::tui::shared::{Cx, Out, Pane, ToastKind};

type O<'a> = Out<'a, ThreadEffect>;

/// The selected message, if the thread pane has the focus and a message.
pub(super) fn selected_message(t: &Thread, cx: &Cx, out: &mut O) -> Option<Message> {
    if cx.focus != Pane::Thread {
        out.toast(ToastKind::Info, "move to the thread (Tab) and pick a message with j/k");
        return None;
    }
    let m = t.selected().map(|i| t.messages[i].clone());
    if m.is_none() {
        out.toast(ToastKind::Info, "no message to pick in this thread");
    }
    m
}
