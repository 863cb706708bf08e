//! Which agent is writing to which contact right now. A write through the
//! hub changes a contact twice over as far as the hub can tell: its own
//! answer, and the service's webhook for the same change, in either order.
//! Whichever of the two stores the change announces it (once); while an
//! agent's write to a contact is in flight, that announcement names the
//! agent, so a webhook that overtakes the write's answer still says who.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

/// The key a send to the phone number `to` is registered under (its
/// contact is known only from the service's answer).
pub fn send_key(to: &str) -> String {
    format!("to:{to}")
}

/// Contact uuid (or [`send_key`]) to the agents with a write to it in flight (a count each).
#[derive(Debug, Default)]
pub struct Writers(Mutex<HashMap<String, Vec<(String, u32)>>>);

/// Registered while a write is in flight; the registration ends with it.
#[derive(Debug)]
pub struct Writing<'a> {
    writers: &'a Writers,
    contact: String,
    agent: String,
}

impl Writers {
    /// Notes that `agent` is writing to `contact` until the guard drops.
    pub fn start<'a>(&'a self, contact: &str, agent: &str) -> Writing<'a> {
        let mut map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let list = map.entry(contact.to_string()).or_default();
        match list.iter_mut().find(|(a, _)| a == agent) {
            Some((_, n)) => *n += 1,
            None => list.push((agent.to_string(), 1)),
        }
        Writing {
            writers: self,
            contact: contact.to_string(),
            agent: agent.to_string(),
        }
    }

    /// The agent writing to `contact` now (the first, if several are).
    pub fn of(&self, contact: &str) -> Option<String> {
        let map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        map.get(contact).and_then(|l| l.first()).map(|(a, _)| a.clone())
    }
}

impl Drop for Writing<'_> {
    fn drop(&mut self) {
        let mut map = self.writers.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(list) = map.get_mut(&self.contact) {
            if let Some(i) = list.iter().position(|(a, _)| *a == self.agent) {
                list[i].1 -= 1;
                if list[i].1 == 0 {
                    list.remove(i);
                }
            }
            if list.is_empty() {
                map.remove(&self.contact);
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
}
