//! The inbox's update: `fn(&mut Inbox, &Cx, &mut Out<InboxEffect>, ...)`
//! (or plain functions of its parts, for what needs no context).

pub mod marks;
