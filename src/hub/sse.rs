//! `GET /hub/v1/events`: the change stream (Server-Sent Events). A
//! reconnect with `Last-Event-ID` gets what it missed from the ring, or
//! `resync` first when it missed more; a client too slow for its queue
//! gets `resync` and the stream ends. A removed token ends its streams.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Extension;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures::Stream;
use serde_json::json;
use tokio::sync::watch;

use super::agents;
use super::auth::Authed;
use super::bus::{Event, Subscription};
use super::state::HubState;
use super::wire;

fn sse(e: &Event) -> SseEvent {
    SseEvent::default().id(e.id.to_string()).event(&e.kind).data(&e.data)
}

fn resync(id: u64, reason: &str) -> SseEvent {
    SseEvent::default()
        .id(id.to_string())
        .event(wire::kind::RESYNC)
        .data(json!({ "reason": reason }).to_string())
}

struct Feed {
    sub: Subscription,
    pending: std::vec::IntoIter<SseEvent>,
    agents: watch::Receiver<u64>,
    stopping: watch::Receiver<bool>,
    st: Arc<HubState>,
    token_hash: String,
    done: bool,
}

pub async fn events(
    State(st): State<Arc<HubState>>,
    Extension(who): Extension<Authed>,
    headers: HeaderMap,
) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>>> {
    let last = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|s| s.trim().parse::<u64>().ok());
    let sub = st.bus.subscribe(last);
    let mut first = Vec::new();
    if sub.gap {
        first.push(resync(sub.cursor, "missed events are no longer kept: fetch a snapshot"));
    }
    first.extend(sub.replay.iter().map(|e| sse(e)));
    let feed = Feed {
        pending: first.into_iter(),
        agents: st.agents_changed.subscribe(),
        stopping: st.stopping.subscribe(),
        token_hash: who.token_hash,
        st: st.clone(),
        sub,
        done: false,
    };
    let stream = futures::stream::unfold(feed, |mut f| async move {
        if f.done {
            return None;
        }
        if let Some(e) = f.pending.next() {
            return Some((Ok(e), f));
        }
        loop {
            tokio::select! {
                ev = f.sub.rx.recv() => match ev {
                    Some(e) => return Some((Ok(sse(&e)), f)),
                    None => {
                        if f.sub.overflowed.load(Ordering::SeqCst) {
                            f.done = true;
                            let id = f.st.bus.last_id();
                            return Some((Ok(resync(id, "too slow: events were dropped, fetch a snapshot")), f));
                        }
                        return None;
                    }
                },
                // The hub is stopping: end, so its shutdown need not wait.
                () = async { let _ = f.stopping.wait_for(|s| *s).await; } => return None,
                changed = f.agents.changed() => {
                    if changed.is_err() {
                        return None;
                    }
                    if !matches!(agents::by_hash(&f.st.store, &f.token_hash), Ok(Some(_))) {
                        return None;
                    }
                }
            }
        }
    });
    let keep_alive = KeepAlive::new().interval(st.config.keep_alive).text("keep-alive");
    Sse::new(stream).keep_alive(keep_alive)
}
