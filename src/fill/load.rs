//! Reading the index for the list: its contacts in batches, then every
//! preview it holds; and what changed in it since the last look.

use tokio::sync::mpsc::UnboundedSender;

use super::msg::{IndexMsg, Outbox};
use crate::index::{IndexAccess, Order, SharedIndex};

/// Contacts read from the index per message to the UI.
pub const LOAD_BATCH: usize = 2000;

/// Reads one batch of the index's contacts from `skip` on (the list asks
/// for the next when it has taken this one in), and after the last every
/// preview the index holds.
pub(super) fn load(index: &mut SharedIndex, generation: u64, skip: usize, send: &impl Fn(IndexMsg)) {
    match index.with(|ix| ix.list(Order::Activity, LOAD_BATCH, skip)) {
        Ok(contacts) => {
            let done = contacts.len() < LOAD_BATCH;
            send(IndexMsg::Loaded {
                generation,
                contacts,
                done,
            });
            if !done {
                return;
            }
        }
        Err(e) => {
            send(IndexMsg::Problem(format!("reading the local index failed: {e}")));
            send(IndexMsg::Loaded {
                generation,
                contacts: Vec::new(),
                done: true,
            });
            return;
        }
    }
    send_all_previews(index, send);
}

/// Sends every last message the index holds (the Waiting view's "who
/// wrote last" for the whole list).
pub(super) fn send_all_previews(index: &mut SharedIndex, send: &impl Fn(IndexMsg)) {
    match index.with(|ix| ix.all_previews()) {
        Ok(p) if !p.is_empty() => send(IndexMsg::Previews(p)),
        Ok(_) => {}
        Err(e) => tracing::warn!("reading previews from the index failed: {e}"),
    }
}

/// Sends what changed in the index since the last call to the UI; true
/// when something did.
pub(super) fn forward_changes<M: Outbox>(index: &mut SharedIndex, tx: &UnboundedSender<M>) -> bool {
    forward_changes_to(index, &|m| {
        let _ = tx.send(M::from(m));
    })
}

/// What another process stored in the index file since the last look (the
/// CLI beside this TUI; see `Index::note_outside_writes`), to the screen.
pub(super) fn forward_outside_writes<M: Outbox>(index: &mut SharedIndex, tx: &UnboundedSender<M>) {
    match index.with(|ix| ix.note_outside_writes()) {
        Ok(true) => {
            forward_changes(index, tx);
        }
        Ok(false) => {}
        Err(e) => tracing::debug!("looking for other processes' writes to the index failed: {e}"),
    }
}

/// [`forward_changes`] through `send`.
pub(super) fn forward_changes_to(index: &mut SharedIndex, send: &impl Fn(IndexMsg)) -> bool {
    match index.with(|ix| ix.take_changes()) {
        Ok(changes) if !changes.is_empty() => {
            send(IndexMsg::Changed(changes));
            true
        }
        Ok(_) => false,
        Err(e) => {
            tracing::warn!("reading the index's changes failed: {e}");
            false
        }
    }
}
