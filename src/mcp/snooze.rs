//! `snooze` and `unsnooze`: this machine's snoozed file (the one the TUI
//! reads), or with a team hub the team's snoozes on the hub.

use chrono::Utc;
use serde_json::{Value, json};

use super::args::{self, Args};
use super::inbox::{Inbox, Reply};
use crate::api::ContactId;
use crate::drafts::ASSISTANT;
use crate::index::IndexAccess;

impl Inbox {
    /// The contact as the index knows it, else as the service does: an
    /// unknown uuid is refused.
    pub(super) async fn contact(&self, uuid: &str) -> Result<crate::api::Contact, String> {
        let mut index = self.index.clone();
        if let Ok(Some(c)) = index.with(|ix| ix.get(uuid)) {
            return Ok(c);
        }
        self.client
            .get_contact(&ContactId::from(uuid), false)
            .await
            .map_err(|e| e.to_string())
    }

    fn snoozed(&self) -> Result<&std::path::Path, String> {
        self.snoozed
            .as_deref()
            .ok_or_else(|| "no home directory to keep snoozes in".into())
    }

    /// Snoozes the contact until the time typed (the agent's words, in
    /// this machine's time zone), in the file the TUI reads.
    pub(super) async fn snooze(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &["contact", "until"])?;
        let uuid = args::text(args, "contact")?;
        let typed = args::text(args, "until")?;
        let now = chrono::Local::now();
        let until = crate::snooze::parse_until(&typed, &now).map_err(|e| format!("`until`: {e}"))?;
        let c = self.contact(&uuid).await?;
        let name = if c.name.trim().is_empty() {
            c.phone_number
        } else {
            c.name
        };
        let entry = crate::snooze::store::Entry {
            until,
            since: now.with_timezone(&Utc),
            name: name.clone(),
            by: Some(ASSISTANT.into()),
        };
        match &self.hub {
            Some(hub) => {
                let at = match until {
                    crate::snooze::Until::At(at) => Some(at),
                    crate::snooze::Until::Reply => None,
                };
                hub.snooze(&uuid, at)
                    .await
                    .map_err(|e| format!("the hub did not keep the snooze: {e}"))?;
                if let Some(path) = self.snoozed.as_deref() {
                    crate::snooze::store::update(path, |kept| kept.back.remove(&uuid))?;
                }
            }
            None => {
                crate::snooze::store::update(self.snoozed()?, |kept| {
                    kept.asleep.insert(uuid.clone(), entry);
                    kept.back.remove(&uuid);
                })?;
            }
        }
        let (at, back) = match until {
            crate::snooze::Until::At(at) => (
                json!(at.to_rfc3339()),
                format!("{}, or sooner if the customer writes", until.describe(&now)),
            ),
            crate::snooze::Until::Reply => (Value::Null, "when the customer writes".into()),
        };
        let summary = format!("Snoozed {uuid}: back {back}");
        Ok(Reply::quoted(
            summary,
            json!({
                "snoozed": uuid,
                "name": name,
                "until": at,
                "comes_back": back,
            }),
        ))
    }

    /// Wakes a snoozed contact: it comes back into the agent's views,
    /// marked `back`.
    pub(super) async fn unsnooze(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &["contact"])?;
        let uuid = args::text(args, "contact")?;
        if let Some(hub) = &self.hub {
            let team = hub.snoozes().await.map_err(|e| format!("the hub's snoozes: {e}"))?;
            let Some(s) = team.into_iter().find(|s| s.contact == uuid) else {
                return Err(format!("{} is not snoozed", crate::text::sanitize_line(&uuid)));
            };
            hub.wake(&uuid)
                .await
                .map_err(|e| format!("the hub did not wake it: {e}"))?;
            if let Some(path) = self.snoozed.as_deref() {
                crate::snooze::store::update(path, |kept| kept.back.insert(uuid.clone()))?;
            }
            let name = s.name.unwrap_or_else(|| uuid.clone());
            return Ok(Reply::quoted(
                format!("Woke {uuid}"),
                json!({ "woken": uuid, "name": name }),
            ));
        }
        let woken = crate::snooze::store::update(self.snoozed()?, |kept| {
            let e = kept.asleep.remove(&uuid);
            if e.is_some() {
                kept.back.insert(uuid.clone());
            }
            e
        })?;
        match woken {
            Some(e) => Ok(Reply::quoted(
                format!("Woke {uuid}"),
                json!({ "woken": uuid, "name": e.name }),
            )),
            None => Err(format!("{} is not snoozed", crate::text::sanitize_line(&uuid))),
        }
    }
}
