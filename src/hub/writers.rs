//! Which agent is writing to which contact right now. A write through the
//! hub changes a contact twice over as far as the hub can tell: its own
//! answer, and the service's webhook for the same change, in either order.
//! Whichever of the two stores the change announces it (once); while an
//! agent's write to a contact is in flight, that announcement names the
//! agent, so a webhook that overtakes the write's answer still says who.
//!
//! Two writes to one contact in flight at once are *contended*: their
//! answers may come back in another order than the service applied them
//! (the service has no versions to tell which is newer), so neither
//! answer is the contact's last state. Each of them learns it (see
//! [`Writing::contended`]) and the hub reads the contact back instead.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// The key a send to the phone number `to` is registered under (its
/// contact is known only from the service's answer).
pub fn send_key(to: &str) -> String {
    format!("to:{to}")
}

/// The writes in flight to one contact.
#[derive(Debug, Default)]
struct InFlight {
    /// The agents writing (a count each).
    agents: Vec<(String, u32)>,
    /// Set once two writes overlap; shared by every write of this run of
    /// overlapping writes.
    contended: Arc<AtomicBool>,
}

/// Contact uuid (or [`send_key`]) to the writes in flight to it; told
/// each time a contact's last write ends.
#[derive(Debug, Default)]
pub struct Writers(Mutex<HashMap<String, InFlight>>, tokio::sync::Notify);

/// Registered while a write is in flight; the registration ends with it.
#[derive(Debug)]
pub struct Writing<'a> {
    writers: &'a Writers,
    contact: String,
    agent: String,
    contended: Arc<AtomicBool>,
}

impl Writers {
    /// Notes that `agent` is writing to `contact` until the guard drops.
    pub fn start<'a>(&'a self, contact: &str, agent: &str) -> Writing<'a> {
        let mut map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let entry = map.entry(contact.to_string()).or_default();
        if !entry.agents.is_empty() {
            entry.contended.store(true, Ordering::SeqCst);
        }
        match entry.agents.iter_mut().find(|(a, _)| a == agent) {
            Some((_, n)) => *n += 1,
            None => entry.agents.push((agent.to_string(), 1)),
        }
        Writing {
            writers: self,
            contact: contact.to_string(),
            agent: agent.to_string(),
            contended: entry.contended.clone(),
        }
    }

    /// The agent writing to `contact` now (the first, if several are).
    pub fn of(&self, contact: &str) -> Option<String> {
        let map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        map.get(contact).and_then(|l| l.agents.first()).map(|(a, _)| a.clone())
    }

    /// Waits until no write to `contact` is in flight, at most `longest`;
    /// true when none is.
    pub async fn settled(&self, contact: &str, longest: Duration) -> bool {
        let until = tokio::time::Instant::now() + longest;
        loop {
            // Asked for before looking, so an end between the two is heard.
            let ended = self.1.notified();
            if self.of(contact).is_none() {
                return true;
            }
            if tokio::time::timeout_at(until, ended).await.is_err() {
                return self.of(contact).is_none();
            }
        }
    }
}

impl Writing<'_> {
    /// Whether another write to the same contact overlapped this one (so
    /// far): its answer may not be the contact's last state.
    pub fn contended(&self) -> bool {
        self.contended.load(Ordering::SeqCst)
    }
}

impl Drop for Writing<'_> {
    fn drop(&mut self) {
        let mut map = self.writers.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(entry) = map.get_mut(&self.contact) {
            let list = &mut entry.agents;
            if let Some(i) = list.iter().position(|(a, _)| *a == self.agent) {
                list[i].1 -= 1;
                if list[i].1 == 0 {
                    list.remove(i);
                }
            }
            if list.is_empty() {
                map.remove(&self.contact);
                self.writers.1.notify_waiters();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_names_its_agent_until_it_ends() {
        let w = Writers::default();
        assert_eq!(w.of("c"), None);
        let a = w.start("c", "dana");
        let b = w.start("c", "dana");
        assert_eq!(w.of("c").as_deref(), Some("dana"));
        drop(a);
        assert_eq!(w.of("c").as_deref(), Some("dana"));
        drop(b);
        assert_eq!(w.of("c"), None);
    }

    #[test]
    fn overlapping_writes_are_both_contended_and_a_lone_one_is_not() {
        let w = Writers::default();
        let lone = w.start("c", "dana");
        assert!(!lone.contended());
        drop(lone);
        let first = w.start("c", "dana");
        let other_contact = w.start("d", "lee");
        assert!(!first.contended() && !other_contact.contended());
        let second = w.start("c", "lee");
        assert!(first.contended(), "the first learns of the second");
        assert!(second.contended());
        drop(first);
        drop(second);
        // A run of overlapping writes ends with its last write.
        assert!(!w.start("c", "dana").contended());
    }

    #[tokio::test]
    async fn settled_waits_for_the_last_write() {
        let w = Arc::new(Writers::default());
        let g = w.start("c", "dana");
        assert!(!w.settled("c", Duration::from_millis(30)).await);
        drop(g);
        assert!(w.settled("c", Duration::from_millis(30)).await);
    }
}
