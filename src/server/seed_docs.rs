//! Seed data for what the public documentation adds to the reference:
//! WhatsApp Cloud contacts known by a bsuid (a few without a phone number),
//! blocked contacts, a discarded channel, and received messages that are
//! more than text (attachments, locations, contact cards, replies,
//! forwards, reply buttons, interactive lists).
//!
//! It draws from its own generator, seeded from the account's seed, so the
//! draws (and uuids) of the rest of the seed stay those they always were.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rusqlite::{Transaction, params};
use serde_json::{Value, json};

use super::db::hex32;
use super::error::ServerError;

/// The rich kinds a received message can carry, in the order the live
/// activity cycles through them.
pub const RICH_KINDS: [&str; 7] = [
    "attachments",
    "messageLocation",
    "messageContactCard",
    "mesageContext",
    "messageForward",
    "messageReplyButton",
    "messageInteractiveList",
];

/// Every `RICH_EVERY`-th conversation has rich received messages.
const RICH_EVERY: i64 = 3;

pub fn seed(tx: &Transaction<'_>, seed: u64, now: i64) -> Result<(), ServerError> {
    let mut rng = StdRng::seed_from_u64(seed ^ 0xD0C5_5EED);
    tx.execute(
        "INSERT INTO channels (uuid, title, type, main, phone, active) VALUES (?1, 'Old number', 'whatsapp', 0, '+4930555999', 0)",
        [hex32(&mut rng)],
    )?;
    cloud_contacts(tx, &mut rng, now)?;
    rich_messages(tx, &mut rng)?;
    Ok(())
}

/// A third of the WhatsApp contacts carry a bsuid; every fourth of those
/// has no phone number (a username-privacy user), so its messages are
/// addressed by bsuid. Every 40th contact is blocked.
fn cloud_contacts(tx: &Transaction<'_>, rng: &mut StdRng, now: i64) -> Result<(), ServerError> {
    let ids: Vec<(i64, Option<String>)> = tx
        .prepare("SELECT id, phone FROM contacts WHERE source = 'whatsapp' ORDER BY id")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (k, (id, phone)) in ids.iter().enumerate().filter(|(k, _)| k % 3 == 0) {
        let bsuid = format!("US.{}", rng.random_range(10u64.pow(17)..10u64.pow(18)));
        tx.execute("UPDATE contacts SET bsuid = ?1 WHERE id = ?2", params![bsuid, id])?;
        if k % 12 == 3 || k == 0 {
            tx.execute("UPDATE contacts SET phone = NULL WHERE id = ?1", [id])?;
            if let Some(p) = phone {
                tx.execute(
                    "UPDATE messages SET sender = ?1 WHERE contact_id = ?2 AND sender = ?3",
                    params![bsuid, id, p],
                )?;
                tx.execute(
                    "UPDATE messages SET recipient = ?1 WHERE contact_id = ?2 AND recipient = ?3",
                    params![bsuid, id, p],
                )?;
            }
        }
    }
    tx.execute(
        "UPDATE contacts SET blocked_at = MIN(?1, created_at + 86400000) WHERE id % 40 = 7",
        [now],
    )?;
    Ok(())
}

/// Rich fields for the received messages of every third conversation.
fn rich_messages(tx: &Transaction<'_>, rng: &mut StdRng) -> Result<(), ServerError> {
    let rows: Vec<(i64, i64, String, i64)> = tx
        .prepare(&format!(
            "SELECT m.id, m.contact_id, m.text, m.created_at FROM messages m
             WHERE m.status = 'received' AND m.contact_id % {RICH_EVERY} = 0 ORDER BY m.id"
        ))?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    for (n, (id, contact, text, at)) in rows.iter().enumerate() {
        let kind = RICH_KINDS[(n + *contact as usize) % RICH_KINDS.len()];
        let (attachments, rich) = rich_fields(kind, rng.random(), text, *at);
        tx.execute(
            "UPDATE messages SET attachments = ?1, rich = ?2 WHERE id = ?3",
            params![attachments.map(|a| a.to_string()), rich.map(|r| r.to_string()), id],
        )?;
    }
    Ok(())
}

/// The stored attachments (a JSON list of URLs) and rich fields (a JSON
/// object of the documented optional fields) of a received message of
/// `kind`. `pick` varies the content; `earlier` is the text a reply quotes.
pub fn rich_fields(kind: &str, pick: u32, earlier: &str, at: i64) -> (Option<Value>, Option<Value>) {
    let n = pick % 1000;
    match kind {
        "attachments" => (
            Some(json!([format!("https://files.example.com/uploads/{n}/photo.jpg")])),
            None,
        ),
        "messageLocation" => {
            let (x, y) = (-23.6 + f64::from(n) / 1e4, -46.6 - f64::from(n) / 1e4);
            (
                None,
                Some(json!({ "messageLocation": {
                    "coordinates": { "x": x, "y": y },
                    "googleMapsLocation": format!(
                        "https://maps.googleapis.com/maps/api/staticmap?zoom=15&size=270x200&markers=color:red%7C{x},{y}"
                    ),
                }})),
            )
        }
        "messageContactCard" => (
            None,
            Some(json!({ "messageContactCard": { "contactsInfo": [{
                "name": "Peter Parker",
                "phones": [{ "phone": format!("3331122{n:04}"), "wa_id": "", "type": "MOBILE" }],
            }]}})),
        ),
        "mesageContext" => (
            None,
            Some(json!({ "mesageContext": {
                "target": { "text": earlier, "createdAt": super::db::iso(at - 60_000), "status": "sent" },
            }})),
        ),
        "messageForward" => (None, Some(json!({ "messageForward": { "forwarded": true } }))),
        "messageReplyButton" => {
            let options: Vec<Value> = ["Yes", "No", "Maybe"]
                .iter()
                .map(|t| json!({ "type": "text", "title": t, "postback_url": "", "postback_text": "" }))
                .collect();
            (
                None,
                Some(json!({ "messageReplyButton": { "metadata": {
                    "type": "quick_reply",
                    "content": { "text": "Did this answer your question?", "contentType": "text" },
                    "options": options,
                }}})),
            )
        }
        "messageInteractiveList" => (
            None,
            Some(json!({ "messageInteractiveList": {
                // The documentation shows this metadata as a JSON string.
                "metadata": json!({
                    "header": "Our shop",
                    "body": "Have a look at our catalogue",
                    "buttons": [{ "title": "click here" }],
                    "sections": [{ "title": "Shoes", "subtitle": null,
                                   "items": [{ "header": "Sneakers", "description": null }] }],
                }).to_string(),
            }})),
        ),
        _ => (None, None),
    }
}
