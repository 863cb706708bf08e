//! The periodic (or `r`) refresh of the newest batch.

use super::effect::ThreadEffect;
use super::msg::ThreadFetch;
use super::state::Thread;
use crate::api::PageRequest;
use crate::tui::shared::Out;

type O<'a> = Out<'a, ThreadEffect>;

/// The periodic (or `r`) refresh of the newest batch.
pub fn fetch_refresh(st: &mut Thread, out: &mut O) {
    let Some(uuid) = st.contact.clone() else {
        return;
    };
    if st.loading.is_some() {
        return;
    }
    let id = out.id();
    st.refreshing = Some(id);
    out.fx(ThreadEffect::Fetch {
        id,
        contact: uuid,
        fetch: ThreadFetch::Refresh,
        at: PageRequest::First,
    });
}
