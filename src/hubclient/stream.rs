//! The hub's event stream, kept open: reconnects with `Last-Event-ID` after
//! a drop (waiting a doubling pause), skips what it already saw (a replay
//! after a reconnect, or what a snapshot already holds), and says when it
//! connects and drops so a screen can show it.

use std::collections::VecDeque;
use std::time::Duration;

use super::client::{HubClient, REFUSED_TOKEN};
use super::events::HubEvent;
use super::sse::SseParser;
use crate::api::ApiError;

/// Pauses between reconnection attempts: `first`, doubling up to `max`;
/// back to `first` once connected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    pub first: Duration,
    pub max: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            first: Duration::from_millis(250),
            max: Duration::from_secs(10),
        }
    }
}

/// What the stream yields.
#[derive(Debug, Clone, PartialEq)]
pub enum HubItem {
    /// The stream is open (again).
    Connected,
    /// An event, with its id. [`HubEvent::Resync`] asks for a snapshot
    /// (then [`HubStream::skip_through`] its cursor).
    Event { id: u64, event: HubEvent },
    /// The stream dropped or could not open; it tries again after
    /// `retry_in`.
    Disconnected { error: ApiError, retry_in: Duration },
}

/// The hub sends a keep-alive every 15 s: three missed mean it is gone.
pub const DEFAULT_IDLE: Duration = Duration::from_secs(45);

/// A reconnecting event stream. [`HubStream::next`] fails only when the
/// hub refuses the token (nothing would change by trying again).
pub struct HubStream {
    hub: HubClient,
    last_id: Option<u64>,
    backoff: Backoff,
    idle: Duration,
    pause: Option<Duration>,
    conn: Option<(reqwest::Response, SseParser)>,
    pending: VecDeque<HubItem>,
}

impl HubClient {
    /// The event stream from after `last_id` (a snapshot's cursor), or
    /// from now when `None`. Nothing is requested before the first `next`.
    pub fn events(&self, last_id: Option<u64>) -> HubStream {
        HubStream {
            hub: self.clone(),
            last_id,
            backoff: Backoff::default(),
            idle: DEFAULT_IDLE,
            pause: None,
            conn: None,
            pending: VecDeque::new(),
        }
    }
}

impl HubStream {
    pub fn with_backoff(mut self, backoff: Backoff) -> Self {
        self.backoff = backoff;
        self
    }

    /// How long a silent connection is kept before reconnecting.
    pub fn with_idle(mut self, idle: Duration) -> Self {
        self.idle = idle;
        self
    }

    /// The id of the last event yielded (what a reconnect resumes after).
    pub fn last_id(&self) -> Option<u64> {
        self.last_id
    }

    /// After a snapshot taken at `cursor`: events up to it are in the
    /// snapshot already and are skipped; if the stream is behind it, it
    /// reconnects from the cursor.
    pub fn skip_through(&mut self, cursor: u64) {
        if self.last_id.is_none_or(|id| id < cursor) {
            self.last_id = Some(cursor);
            self.conn = None;
            self.pending
                .retain(|i| !matches!(i, HubItem::Event { id, .. } if *id <= cursor));
        }
    }

    /// The next item: an event, or news of the connection.
    pub async fn next(&mut self) -> Result<HubItem, ApiError> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Ok(item);
            }
            let Some((resp, parser)) = self.conn.as_mut() else {
                if let Some(p) = self.pause {
                    tokio::time::sleep(p).await;
                }
                match self.connect().await {
                    Ok(()) => return Ok(HubItem::Connected),
                    Err(e) if is_refused(&e) => return Err(e),
                    Err(e) => return Ok(self.dropped(e)),
                }
            };
            let chunk = match self.hub.chunk(resp, self.idle).await {
                Ok(Some(c)) => c,
                Ok(None) => {
                    let e = ApiError::Transport("the hub closed the event stream".into());
                    return Ok(self.dropped(e));
                }
                Err(e) => return Ok(self.dropped(e)),
            };
            let events = match parser.feed(&chunk) {
                Ok(events) => events,
                Err(e) => return Ok(self.dropped(ApiError::Transport(e.to_string()))),
            };
            for e in events {
                // Ids are numbers on this protocol; an event without one
                // cannot be resumed after, but is still news.
                let id = e.id.as_deref().and_then(|i| i.trim().parse::<u64>().ok());
                if let (Some(id), Some(last)) = (id, self.last_id)
                    && id <= last
                {
                    continue;
                }
                if id.is_some() {
                    self.last_id = id;
                }
                match HubEvent::decode(&e.event, &e.data) {
                    Ok(event) => self.pending.push_back(HubItem::Event {
                        id: id.unwrap_or_default(),
                        event,
                    }),
                    Err(bad) => tracing::warn!(error = %bad, "skipped a hub event"),
                }
            }
        }
    }

    async fn connect(&mut self) -> Result<(), ApiError> {
        let mut headers = vec![("accept", "text/event-stream".to_string())];
        if let Some(id) = self.last_id {
            headers.push(("last-event-id", id.to_string()));
        }
        let resp = self.hub.open(&["events"], &headers).await?;
        self.conn = Some((resp, SseParser::new()));
        self.pause = None;
        Ok(())
    }

    fn dropped(&mut self, error: ApiError) -> HubItem {
        self.conn = None;
        let retry_in = match self.pause {
            None => self.backoff.first,
            Some(p) => (p * 2).min(self.backoff.max),
        };
        self.pause = Some(retry_in);
        HubItem::Disconnected { error, retry_in }
    }
}

fn is_refused(e: &ApiError) -> bool {
    matches!(e, ApiError::Rejected { status: 401, message } if message == REFUSED_TOKEN)
}
