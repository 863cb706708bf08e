//! The event bus: every change gets the next id, goes into a ring of
//! recent events (for `Last-Event-ID` replays) and into each connected
//! client's own bounded queue. Publishing never waits: a client whose
//! queue is full is cut off and told to `resync`, so one stalled client
//! slows no other.
//!
//! Each event is serialized once, when published, into its whole SSE
//! frame; the ring, every queue and every replay share that one copy
//! (`Arc`), so fan-out and replays cost a pointer per stream, not a copy.
//! The ring is bounded in bytes as well as in events, and an event larger
//! than the cap goes out as a `resync` instead.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use axum::body::Bytes;
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// One event as sent on the stream.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub id: u64,
    pub kind: String,
    /// One line of JSON.
    pub data: String,
    /// `id: …\nevent: …\ndata: …\n\n`, as written to every stream.
    pub frame: Bytes,
}

impl Event {
    fn new(id: u64, kind: &str, data: String) -> Event {
        let frame = Bytes::from(format!("id: {id}\nevent: {kind}\ndata: {data}\n\n"));
        Event {
            id,
            kind: kind.to_string(),
            data,
            frame,
        }
    }

    /// The bytes this event holds.
    pub fn size(&self) -> usize {
        self.frame.len() + self.data.len() + self.kind.len()
    }
}

/// A `resync` frame with `reason` (not kept in the ring).
pub fn resync_frame(id: u64, reason: &str) -> Bytes {
    Event::new(id, super::wire::kind::RESYNC, json!({ "reason": reason }).to_string()).frame
}

struct Client {
    tx: mpsc::Sender<Arc<Event>>,
    overflowed: Arc<AtomicBool>,
}

struct Inner {
    next: u64,
    ring: VecDeque<Arc<Event>>,
    /// Bytes the ring holds.
    ring_bytes: usize,
    clients: Vec<Client>,
}

/// Clones share the bus.
#[derive(Clone)]
pub struct Bus {
    inner: Arc<Mutex<Inner>>,
    replay: usize,
    queue: usize,
    max_event: usize,
    replay_bytes: usize,
}

impl std::fmt::Debug for Bus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bus")
            .field("replay", &self.replay)
            .finish_non_exhaustive()
    }
}

/// What a new client gets: the events it missed (from the ring), then
/// its queue. `gap` is true when it missed more than the ring holds.
pub struct Subscription {
    pub replay: Vec<Arc<Event>>,
    pub gap: bool,
    pub rx: mpsc::Receiver<Arc<Event>>,
    /// Set when the client fell so far behind that it was cut off.
    pub overflowed: Arc<AtomicBool>,
    /// The last id published when it subscribed.
    pub cursor: u64,
}

impl Bus {
    /// A bus whose first event gets `first_id`, keeping `replay` events
    /// for reconnects and `queue` undelivered events per client.
    pub fn new(first_id: u64, replay: usize, queue: usize) -> Bus {
        Bus {
            inner: Arc::new(Mutex::new(Inner {
                next: first_id.max(1),
                ring: VecDeque::with_capacity(replay.min(65_536)),
                ring_bytes: 0,
                clients: Vec::new(),
            })),
            replay: replay.max(1),
            queue: queue.max(1),
            max_event: 64 * 1024,
            replay_bytes: 16 * 1024 * 1024,
        }
    }

    /// Caps one event's data at `max_event` bytes and the ring at
    /// `replay_bytes`.
    pub fn with_limits(mut self, max_event: usize, replay_bytes: usize) -> Bus {
        self.max_event = max_event.max(256);
        self.replay_bytes = replay_bytes.max(self.max_event);
        self
    }

    /// Bytes the replay ring holds now.
    pub fn ring_bytes(&self) -> usize {
        self.lock().ring_bytes
    }

    /// The events after `after` the ring still holds, oldest first (shared, not copied).
    pub fn ring_after(&self, after: u64) -> Vec<Arc<Event>> {
        self.lock().ring.iter().filter(|e| e.id > after).cloned().collect()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The id of the last event published (0: none yet... or the one
    /// before the first this bus gives).
    pub fn last_id(&self) -> u64 {
        self.lock().next - 1
    }

    /// The id of the oldest event the replay ring holds.
    pub fn oldest_id(&self) -> Option<u64> {
        self.lock().ring.front().map(|e| e.id)
    }

    /// The id the next event will get.
    pub fn next_id(&self) -> u64 {
        self.lock().next
    }

    /// How many clients are connected.
    pub fn clients(&self) -> usize {
        self.lock().clients.len()
    }

    /// Sends `data` as an event of `kind` to everyone; returns its id.
    pub fn publish(&self, kind: &str, data: &Value) -> u64 {
        let mut inner = self.lock();
        let id = inner.next;
        inner.next += 1;
        let mut text = data.to_string();
        let mut kind = kind;
        if text.len() > self.max_event {
            tracing::warn!(
                "a {kind} event of {} bytes was too large to send: resync instead",
                text.len()
            );
            kind = super::wire::kind::RESYNC;
            text = json!({ "reason": "an event was too large to send: fetch a snapshot" }).to_string();
        }
        let event = Arc::new(Event::new(id, kind, text));
        inner.ring_bytes += event.size();
        inner.ring.push_back(event.clone());
        while inner.ring.len() > self.replay || (inner.ring_bytes > self.replay_bytes && inner.ring.len() > 1) {
            if let Some(old) = inner.ring.pop_front() {
                inner.ring_bytes -= old.size();
            }
        }
        inner.clients.retain(|c| match c.tx.try_send(event.clone()) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                c.overflowed.store(true, Ordering::SeqCst);
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        });
        id
    }

    /// Connects a client that has seen every event up to `last_seen`
    /// (`None`: a new client, nothing to replay).
    pub fn subscribe(&self, last_seen: Option<u64>) -> Subscription {
        let mut inner = self.lock();
        let cursor = inner.next - 1;
        let (replay, gap) = match last_seen {
            None => (Vec::new(), false),
            Some(n) if n == cursor => (Vec::new(), false),
            Some(n) if n > cursor => (Vec::new(), true),
            Some(n) => {
                let oldest = inner.ring.front().map_or(inner.next, |e| e.id);
                if n + 1 < oldest {
                    (Vec::new(), true)
                } else {
                    (inner.ring.iter().filter(|e| e.id > n).cloned().collect(), false)
                }
            }
        };
        let (tx, rx) = mpsc::channel(self.queue);
        let overflowed = Arc::new(AtomicBool::new(false));
        inner.clients.push(Client {
            tx,
            overflowed: overflowed.clone(),
        });
        Subscription {
            replay,
            gap,
            rx,
            overflowed,
            cursor,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_reconnect_gets_what_it_missed_and_a_gap_past_the_ring() {
        let bus = Bus::new(1, 3, 10);
        for i in 0..5 {
            bus.publish("x", &json!({ "i": i }));
        }
        let s = bus.subscribe(Some(3));
        assert!(!s.gap);
        assert_eq!(s.replay.iter().map(|e| e.id).collect::<Vec<_>>(), vec![4, 5]);
        let s = bus.subscribe(Some(1));
        assert!(s.gap, "events 2 and up are no longer all in the ring");
    }

    #[test]
    fn a_full_queue_cuts_that_client_off_and_no_other() {
        let bus = Bus::new(1, 100, 2);
        let slow = bus.subscribe(None);
        let mut fast = bus.subscribe(None);
        for i in 0..3 {
            bus.publish("x", &json!(i));
            assert!(fast.rx.try_recv().is_ok());
        }
        assert!(slow.overflowed.load(Ordering::SeqCst));
        assert!(!fast.overflowed.load(Ordering::SeqCst));
        assert_eq!(bus.clients(), 1);
    }

    #[test]
    fn replays_share_the_rings_events_and_the_ring_is_bounded_in_bytes() {
        let bus = Bus::new(1, 10_000, 10).with_limits(4096, 20_000);
        let big = "x".repeat(3000);
        for _ in 0..50 {
            bus.publish("agent_status", &json!({ "pad": big }));
        }
        assert!(bus.ring_bytes() <= 20_000, "{}", bus.ring_bytes());
        let oldest = bus.oldest_id().expect("some kept");
        let a = bus.subscribe(Some(oldest));
        let b = bus.subscribe(Some(oldest));
        assert!(!a.replay.is_empty());
        for (x, y) in a.replay.iter().zip(&b.replay) {
            assert!(Arc::ptr_eq(x, y), "two replays hold the same event, not copies");
        }
        let ring = bus.ring_after(oldest);
        assert!(Arc::ptr_eq(&ring[0], &a.replay[0]));
    }

    #[test]
    fn an_event_past_the_cap_goes_out_as_resync() {
        let bus = Bus::new(1, 10, 10).with_limits(1024, 1 << 20);
        let mut s = bus.subscribe(None);
        bus.publish("agent_status", &json!({ "pad": "y".repeat(5000) }));
        let e = s.rx.try_recv().expect("an event");
        assert_eq!(e.kind, "resync");
        assert!(e.frame.len() < 1024);
    }
}
