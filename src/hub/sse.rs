//! `GET /hub/v1/events`: the change stream (Server-Sent Events). A
//! reconnect with `Last-Event-ID` gets what it missed from the ring, or
//! `resync` first when it missed more or sent an id the hub never issued
//! (garbage, `-1`, one past the newest); a client too slow for its queue
//! gets `resync` and the stream ends. A removed, rotated or expired token
//! ends its streams.
//!
//! Each event's frame was written once, by the bus; a stream sends the
//! shared bytes (`Arc`), replays included, one event at a time, so a
//! reconnect costs a pointer per missed event and no copy.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Extension;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use tokio::sync::watch;

use super::agents;
use super::auth::Authed;
use super::bus::{Event, Subscription, resync_frame};
use super::state::HubState;

const KEEP_ALIVE: &[u8] = b":keep-alive\n\n";

/// What `Last-Event-ID` said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LastSeen {
    /// No header: a new client.
    None,
    Id(u64),
    /// Not a number (garbage, `-1`).
    Garbage,
}

pub fn last_seen(headers: &HeaderMap) -> LastSeen {
    match headers.get("last-event-id") {
        None => LastSeen::None,
        Some(v) => match v.to_str().ok().and_then(|s| s.trim().parse::<u64>().ok()) {
            Some(n) => LastSeen::Id(n),
            None => LastSeen::Garbage,
        },
    }
}

struct Feed {
    sub: Subscription,
    first: Option<Bytes>,
    /// Missed events, sent one by one (shared with the ring).
    replay: std::vec::IntoIter<Arc<Event>>,
    agents: watch::Receiver<u64>,
    stopping: watch::Receiver<bool>,
    keep_alive: tokio::time::Interval,
    st: Arc<HubState>,
    token_hash: String,
    /// When the token expires: its stream ends at the next heartbeat after.
    expires: Option<chrono::DateTime<chrono::Utc>>,
    done: bool,
}

/// Still allowed: the token is there and not expired.
fn token_valid(st: &HubState, hash: &str) -> bool {
    matches!(agents::by_hash(&st.store, hash), Ok(Some(a)) if !a.expired(chrono::Utc::now()))
}

pub async fn events(
    State(st): State<Arc<HubState>>,
    Extension(who): Extension<Authed>,
    headers: HeaderMap,
) -> Response {
    let seen = last_seen(&headers);
    let mut sub = st.bus.subscribe(match seen {
        LastSeen::Id(n) => Some(n),
        LastSeen::None | LastSeen::Garbage => None,
    });
    let first = if seen == LastSeen::Garbage {
        Some(resync_frame(
            sub.cursor,
            "Last-Event-ID is not an event id this hub issued: fetch a snapshot",
        ))
    } else if sub.gap {
        Some(resync_frame(
            sub.cursor,
            "missed events are no longer kept: fetch a snapshot",
        ))
    } else {
        None
    };
    // A stream opened while the service is down or limiting the hub
    // hears so at once (a frame without id: it is not in the ring).
    let first = if st.guard.health.state() == super::guard::ServiceState::Up {
        first
    } else {
        let status = format!(
            "event: {}\ndata: {}\n\n",
            super::guard::SERVICE_STATUS,
            st.guard.health.status()
        );
        let mut all = first.map(|b| b.to_vec()).unwrap_or_default();
        all.extend_from_slice(status.as_bytes());
        Some(Bytes::from(all))
    };
    let replay = std::mem::take(&mut sub.replay).into_iter();
    let period = st.config.keep_alive.max(std::time::Duration::from_millis(10));
    let mut keep_alive = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    keep_alive.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let feed = Feed {
        first,
        replay,
        agents: st.agents_changed.subscribe(),
        stopping: st.stopping.subscribe(),
        keep_alive,
        token_hash: who.token_hash,
        expires: who
            .agent
            .expires_at
            .as_deref()
            .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
            .map(|t| t.with_timezone(&chrono::Utc)),
        st: st.clone(),
        sub,
        done: false,
    };
    let stream = futures::stream::unfold(feed, |mut f| async move {
        if f.done {
            return None;
        }
        if let Some(b) = f.first.take() {
            return Some((Ok::<_, Infallible>(b), f));
        }
        if let Some(e) = f.replay.next() {
            return Some((Ok(e.frame.clone()), f));
        }
        loop {
            tokio::select! {
                ev = f.sub.rx.recv() => match ev {
                    Some(e) => return Some((Ok(e.frame.clone()), f)),
                    None => {
                        if f.sub.overflowed.load(Ordering::SeqCst) {
                            f.done = true;
                            let id = f.st.bus.last_id();
                            return Some((Ok(resync_frame(id, "too slow: events were dropped, fetch a snapshot")), f));
                        }
                        return None;
                    }
                },
                _ = f.keep_alive.tick() => {
                    if f.expires.is_some_and(|t| t <= chrono::Utc::now()) {
                        return None;
                    }
                    return Some((Ok(Bytes::from_static(KEEP_ALIVE)), f));
                }
                // The hub is stopping: end, so its shutdown need not wait.
                () = async { let _ = f.stopping.wait_for(|s| *s).await; } => return None,
                changed = f.agents.changed() => {
                    if changed.is_err() || !token_valid(&f.st, &f.token_hash) {
                        return None;
                    }
                }
            }
        }
    });
    let mut resp = Body::from_stream(stream).into_response();
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert("x-accel-buffering", HeaderValue::from_static("no"));
    resp
}
