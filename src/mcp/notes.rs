//! `add_note` (an internal note on the contact's conversation, `@`
//! tagging a colleague as the service's documentation describes) and the
//! lookups by phone number and by bsuid, answering with
//! `contact_details`' shape.

use serde_json::json;

use super::args::{self, Args, NOTE_MAX_CHARS};
use super::inbox::{Inbox, Reply, details_json};
use crate::api::{ApiError, ContactId};
use crate::triage::bulk::Action;
use crate::triage::write::{Done, Settled};

/// A lookup's answer: the contact, or what the service said as a tool
/// error naming what was looked for.
fn found(what: &str, r: Result<crate::api::Contact, ApiError>) -> Result<Reply, String> {
    match r {
        Ok(c) => {
            let summary = format!("Contact {} for {what}", c.uuid);
            Ok(Reply::quoted(summary, details_json(&c)))
        }
        Err(ApiError::NotFound { .. }) => Err(format!(
            "no contact has {what}: check the number (digits, with its country code) or the bsuid"
        )),
        Err(e) => Err(format!("looking up {what} failed: {e}")),
    }
}

impl Inbox {
    pub(super) async fn add_note(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &["contact", "text"])?;
        let uuid = args::text(args, "contact")?;
        let text = args::text(args, "text")?;
        let n = text.chars().count();
        if n > NOTE_MAX_CHARS {
            return Err(format!(
                "`text` is {n} characters: a note takes at most {NOTE_MAX_CHARS}"
            ));
        }
        // An unknown contact is refused before anything is written.
        let c = self.contact(&uuid).await?;
        let name = if c.name.trim().is_empty() {
            c.phone_number.clone()
        } else {
            c.name.clone()
        };
        // In the run history like the other writes (which cannot take a
        // note back: the service cannot delete one).
        let record = |settled: Settled| {
            let done = Done {
                uuid: uuid.clone(),
                name: name.clone(),
                before: Some(c.clone()),
                settled,
                missing: false,
            };
            (self.record)(&Action::ConversationNote(text.clone()), &done);
        };
        match self.client.add_note(&ContactId::from(uuid.as_str()), &text).await {
            Ok(()) => record(Settled::Applied(c.clone())),
            Err(e) if e.may_have_applied() => {
                record(Settled::Unknown(e.to_string()));
                return Err(format!(
                    "whether the note was written is unknown ({}): read_thread shows it before writing it again",
                    crate::text::sanitize_line(&e.to_string())
                ));
            }
            Err(e) => return Err(format!("the note was not written: {e}")),
        }
        self.fresh.nudge();
        Ok(Reply::quoted(
            format!("Note added to {uuid}'s conversation (seen by the team, not the customer)"),
            json!({ "noted": uuid, "name": name, "text": text }),
        ))
    }

    pub(super) async fn by_phone(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &["phone", "channel"])?;
        let typed = args::text(args, "phone")?;
        let phone: String = typed
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '(' | ')' | '.'))
            .collect();
        let digits = phone.strip_prefix('+').unwrap_or(&phone);
        if !(3..=20).contains(&digits.len()) || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(format!(
                "`phone` {:?} is not a phone number: digits with the country code (+15551234567)",
                crate::text::sanitize_line(&typed)
            ));
        }
        let channel = args::opt_text(args, "channel")?;
        let what = format!("the phone number {phone}");
        let asked = self.client.contact_by_phone(&phone, channel.as_deref()).await;
        if channel.is_none()
            && matches!(asked, Err(ApiError::NotFound { .. }))
            && let Some(uuid) = self.phone_in_index(digits).await
        {
            // The service looks on the main channel only: the index knows
            // the contacts of every channel.
            let c = self.client.get_contact(&ContactId::from(uuid.as_str()), false).await;
            return found(&what, c);
        }
        found(&what, asked)
    }

    /// The one contact of the index with these digits as its number.
    async fn phone_in_index(&self, digits: &str) -> Option<String> {
        let wanted = digits.to_string();
        let same = move |p: &str| p.chars().filter(char::is_ascii_digit).collect::<String>() == wanted;
        let hits = self
            .read(move |ix| {
                Ok(ix
                    .list(crate::index::Order::Activity, usize::MAX >> 1, 0)?
                    .into_iter()
                    .filter(|c| same(&c.phone_number))
                    .map(|c| c.uuid)
                    .collect::<Vec<_>>())
            })
            .await
            .ok()?;
        match hits.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }

    pub(super) async fn by_bsuid(&self, args: &Args) -> Result<Reply, String> {
        args::only(args, &["bsuid"])?;
        let bsuid = args::text(args, "bsuid")?;
        let ok = bsuid.len() <= 128
            && bsuid
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '=' | ':'));
        if !ok {
            return Err("`bsuid` holds characters no bsuid has (letters, digits, - _ . = : only)".into());
        }
        let what = format!("the bsuid {bsuid}");
        found(&what, self.client.contact_by_bsuid(&bsuid).await)
    }
}
