//! `/` asks the service for a customer the list and the index do not
//! hold: when the query reads as a phone number or a bsuid and no match
//! has it, the lookup goes (after a moment, if the query stays); its
//! answer is a row of its own, which Enter opens (`moves::search_key`):
//! the contact then joins the list and the index like one created here.

use super::super::fx::InboxEffect;
use super::super::state::Inbox;
use super::super::state::contact_list::{Looked, LookupJob};
use super::O;
use crate::api::{ApiError, Contact};

/// How many matches are read for the bsuid they hold (a bsuid is not on
/// the row: each is read back whole).
const BSUID_CHECKS: usize = 50;

/// The query changed: a lookup of another number is dropped.
pub fn query_changed(st: &mut Inbox) {
    if let Some(s) = st.list.view.search.as_mut() {
        let query = s.query.clone();
        s.lookup.query_changed(&query);
    }
}

/// A search result arrived: when the query reads as a number (or a
/// bsuid) no match holds, and it was not asked yet, ask the service.
pub fn after_search(st: &mut Inbox, out: &mut O) {
    let list = &*st.list;
    let Some(s) = list.view.search.as_ref() else {
        return;
    };
    let Some(key) = s.lookup.key.clone() else {
        return;
    };
    if s.lookup.state.is_some() {
        return;
    }
    let rows = s.matches.iter().filter_map(|&i| list.store.get(i as usize));
    let held = match &key {
        super::super::state::contact_list::LookupKey::Phone(_) => {
            rows.clone().any(|r| key.held_by(&r.phone_number, None))
        }
        super::super::state::contact_list::LookupKey::Bsuid(_) => rows
            .take(BSUID_CHECKS)
            .any(|r| key.held_by(&r.phone_number, r.to_contact().bsuid.as_deref())),
    };
    if held {
        return;
    }
    let Some(s) = st.list.view.search.as_mut() else {
        return;
    };
    let id = s.lookup.bump();
    s.lookup.state = Some(Looked::Looking);
    out.fx(InboxEffect::LookUp(LookupJob {
        id,
        key,
        latest: s.lookup.latest.clone(),
    }));
}

/// The service's answer to lookup `id`: dropped when the query moved on.
pub fn looked_up(st: &mut Inbox, id: u64, result: Result<Box<Contact>, ApiError>) {
    let Some(s) = st.list.view.search.as_mut() else {
        return;
    };
    if s.lookup.id != id || s.lookup.state != Some(Looked::Looking) {
        return;
    }
    s.lookup.state = Some(match result {
        Ok(c) => Looked::Found(c),
        Err(ApiError::NotFound { .. }) => Looked::Missing,
        Err(e) => Looked::Failed(crate::text::sanitize_line(&e.to_string())),
    });
}

/// Enter while the found contact has the cursor: the contact to open
/// (the caller closes the search and adds it to the list); none when
/// there is none to open.
pub fn found_to_open(st: &Inbox) -> Option<Contact> {
    st.list.view.search.as_ref()?.lookup.found_first().cloned()
}
