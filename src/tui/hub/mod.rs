//! The team hub's side of the screen: what the hub's stream says of
//! colleagues (kept in `shared::Colleagues`, which rows, the thread's
//! header and the composer read), and this agent's own presence, told to
//! the hub when it changes (the index worker renews it every
//! [`RENEW_SECS`], so an idle screen keeps it). Without a hub the slice
//! does nothing.

use chrono::{DateTime, Utc};

use crate::api::MessageStatus;
use crate::hubclient::{HubEvent, PresenceState};
use crate::tui::shared::Colleagues;
use crate::tui::shared::colleagues::{Doing, default_until};

pub use crate::fill::RENEW_SECS;

/// What this agent last told the hub.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Told {
    pub contact: String,
    pub doing: Option<Doing>,
}

#[derive(Debug, Clone, Default)]
pub struct State {
    pub told: Option<Told>,
}

/// This agent's name on the hub.
pub fn me(colleagues: &mut Colleagues, name: String) {
    colleagues.me = Some(name);
    colleagues.version += 1;
}

/// An event of the hub's stream for the screen.
pub fn event(colleagues: &mut Colleagues, event: &HubEvent, now: DateTime<Utc>) {
    match event {
        HubEvent::Presence(p) => {
            let doing = match p.state {
                PresenceState::Viewing => Some(Doing::Viewing),
                PresenceState::Composing => Some(Doing::Composing),
                PresenceState::Idle | PresenceState::Other => None,
            };
            let until = p.expires_at.filter(|t| *t > now).unwrap_or_else(|| default_until(now));
            colleagues.set(&p.agent, &p.contact, doing, until);
        }
        // The event names who sent (a send through the hub), or its
        // message does (`sentBy`, when the webhook came first).
        // (A send's own answer says "enqueued": anything but a customer's
        // message or a note, with an agent's name, is that agent's reply.)
        HubEvent::MessageCreated {
            contact,
            message,
            agent,
        } if !matches!(message.status, MessageStatus::Received | MessageStatus::Note) => {
            if let Some(agent) = agent.as_deref().or(message.sent_by.as_deref()) {
                colleagues.sent(agent, contact, message.created_at.unwrap_or(now));
            }
        }
        HubEvent::ServiceStatus(s) => {
            colleagues.service = match s.state {
                crate::hubclient::ServiceState::Up => None,
                state => Some((state, s.since.unwrap_or(now))),
            };
            colleagues.version += 1;
        }
        _ => {}
    }
}

/// What to tell the hub now, given what the agent does (`want`: the
/// contact whose composer is open, else whose thread shows): a change at
/// once, an end (`None`) once when the agent leaves the contact.
pub fn presence(st: &mut State, want: Option<(&str, Doing)>) -> Option<(String, Option<Doing>)> {
    let next = match (want, &st.told) {
        (Some((contact, doing)), Some(t)) if t.contact == contact && t.doing == Some(doing) => return None,
        (Some((contact, doing)), _) => (contact.to_string(), Some(doing)),
        (None, Some(t)) if t.doing.is_some() => (t.contact.clone(), None),
        (None, _) => return None,
    };
    st.told = Some(Told {
        contact: next.0.clone(),
        doing: next.1,
    });
    Some(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Message;
    use crate::hubclient::Presence;

    fn t(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + s, 0).unwrap()
    }

    fn message(status: MessageStatus) -> Message {
        let mut m: Message = serde_json::from_value(serde_json::json!({ "text": "hello" })).unwrap();
        m.status = status;
        m.created_at = Some(t(2));
        m
    }

    #[test]
    fn presence_is_told_on_change_renewed_and_ended_once() {
        let mut st = State::default();
        assert_eq!(presence(&mut st, None), None, "nothing to end");
        assert_eq!(
            presence(&mut st, Some(("ana", Doing::Viewing))),
            Some(("ana".into(), Some(Doing::Viewing)))
        );
        assert_eq!(presence(&mut st, Some(("ana", Doing::Viewing))), None);
        assert_eq!(
            presence(&mut st, Some(("ana", Doing::Composing))),
            Some(("ana".into(), Some(Doing::Composing))),
            "a change goes at once"
        );
        assert_eq!(
            presence(&mut st, Some(("ana", Doing::Composing))),
            None,
            "the worker renews it, not every update"
        );
        assert_eq!(presence(&mut st, None), Some(("ana".into(), None)));
        assert_eq!(presence(&mut st, None), None, "ended once");
        assert_eq!(
            presence(&mut st, Some(("bob", Doing::Viewing))),
            Some(("bob".into(), Some(Doing::Viewing)))
        );
    }

    #[test]
    fn the_streams_presence_and_sends_fill_the_colleagues() {
        let mut c = Colleagues::default();
        me(&mut c, "bea".into());
        let seen = |agent: &str, state| {
            HubEvent::Presence(Presence {
                agent: agent.into(),
                contact: "ana".into(),
                state,
                expires_at: Some(t(30)),
            })
        };
        event(&mut c, &seen("dana", PresenceState::Composing), t(0));
        event(&mut c, &seen("bea", PresenceState::Viewing), t(0));
        assert_eq!(c.label("ana", t(1)).as_deref(), Some("dana replying…"));
        let sent = |status| HubEvent::MessageCreated {
            contact: "ana".into(),
            message: message(status),
            agent: Some("dana".into()),
        };
        // A customer's message is not a colleague's reply.
        event(&mut c, &sent(MessageStatus::Received), t(2));
        assert_eq!(c.before_send("ana", 0, t(3)).as_deref(), Some("dana is replying now"));
        event(&mut c, &sent(MessageStatus::Sent), t(2));
        assert_eq!(c.before_send("ana", 0, t(22)).as_deref(), Some("dana replied 20 s ago"));
        event(&mut c, &seen("dana", PresenceState::Idle), t(23));
        assert_eq!(c.label("ana", t(23)), None);
    }
}
