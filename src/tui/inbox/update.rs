//! The inbox's update: `fn(&mut Inbox, &Cx, &mut Out<InboxEffect>, ...)`
//! (or plain functions of its parts, for what needs no context). What
//! other slices must do about it goes out as notes: `Note::Show` (load a
//! contact's thread and details now), `Note::Learned`, toasts, the bell.

pub mod index;
pub mod lookup;
pub mod marks;
pub mod moves;
pub mod search;
pub mod selection;
pub mod views;
pub mod walk;

use super::fx::InboxEffect;
use crate::tui::shared::Out;

type O<'a> = Out<'a, InboxEffect>;
