//! Reading the index for the list: its contacts in batches, then every
//! preview it holds.

use super::LOAD_BATCH;
use crate::index::{IndexAccess, Order, SharedIndex};
use crate::tui::msg::index::IndexMsg;

/// Reads the index's contacts from `skip` on and its previews, in batches.
pub(super) fn load(index: &mut SharedIndex, generation: u64, skip: usize, send: &impl Fn(IndexMsg)) {
    let mut at = skip;
    loop {
        match index.with(|ix| ix.list(Order::Activity, LOAD_BATCH, at)) {
            Ok(contacts) => {
                let done = contacts.len() < LOAD_BATCH;
                at += contacts.len();
                send(IndexMsg::Loaded {
                    generation,
                    contacts,
                    done,
                });
                if done {
                    break;
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
    }
    match index.with(|ix| ix.all_previews()) {
        Ok(p) if !p.is_empty() => send(IndexMsg::Previews(p)),
        Ok(_) => {}
        Err(e) => tracing::warn!("reading previews from the index failed: {e}"),
    }
}
