//! Live activity for the demo: now and then a customer writes, a started bot
//! replies, send-requests advance; each leaves its webhook event.

use std::time::Duration;

use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rusqlite::{Connection, OptionalExtension, params};

use super::db::hex32;
use super::error::ApiResult;
use super::routes::messages::progress_events;
use super::seed_docs::{RICH_KINDS, rich_fields};
use super::seed_text::{BOT_REPLIES, RECEIVED};
use super::state::Shared;
use super::webhooks::{Event, emit, payloads};

pub async fn run(state: Shared, seed: u64, every: Duration) {
    let mut rng = StdRng::seed_from_u64(seed ^ 0xAC71_7E17);
    let mut tick = tokio::time::interval(every);
    tick.tick().await;
    let mut n: usize = 0;
    loop {
        tick.tick().await;
        n = n.wrapping_add(1);
        // Every other customer message is more than text, cycling through
        // the documented rich kinds.
        let rich = n.is_multiple_of(2).then(|| RICH_KINDS[(n / 2) % RICH_KINDS.len()]);
        let text = RECEIVED.choose(&mut rng).copied().unwrap_or("hello");
        let reply = BOT_REPLIES.choose(&mut rng).copied().unwrap_or("🤖");
        let pick: f64 = rng.random();
        let step_ms = state.status_step_ms;
        let result = state
            .db_now(move |conn, now| {
                let mut events = progress_events(conn, step_ms, None, now)?;
                events.extend(customer_writes(conn, pick, text, reply, rich, now)?);
                Ok(events)
            })
            .await;
        match result {
            Ok(events) => emit(&state, events).await,
            Err(e) => tracing::warn!(error = ?e, "activity tick failed"),
        }
    }
}

/// A contact (biased towards recent conversations) writes; its bot answers
/// when started. Returns the events to deliver.
fn customer_writes(
    conn: &Connection,
    pick: f64,
    text: &str,
    reply: &str,
    rich: Option<&str>,
    now: i64,
) -> ApiResult<Vec<Event>> {
    let max: i64 = conn.query_row("SELECT COALESCE(MAX(id), 0) FROM contacts", [], |r| r.get(0))?;
    if max == 0 {
        return Ok(Vec::new());
    }
    // Squaring biases the pick towards the top of the list without starving the rest.
    let offset = ((pick * pick) * (max.min(200) as f64)) as i64;
    let found: Option<(i64, String, String, Option<String>, String)> = conn
        .query_row(
            "SELECT c.id, COALESCE(c.phone, c.bsuid, ''), c.source, c.bot_status, COALESCE(ch.phone, '') FROM contacts c
             LEFT JOIN channels ch ON ch.id = c.channel_id
             ORDER BY c.last_activity DESC, c.id DESC LIMIT 1 OFFSET ?1",
            [offset],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .ok();
    let Some((id, phone, source, bot, business)) = found else {
        return Ok(Vec::new());
    };
    let mut rng = rand::rng();
    let mut messages = Vec::new();
    let mut add = |text: &str, at: i64, status: &str, from: &str, to: &str| -> rusqlite::Result<i64> {
        conn.execute(
            "INSERT INTO messages (uuid, contact_id, text, created_at, status, channel, sender, recipient)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![hex32(&mut rng), id, text, at, status, source, from, to],
        )?;
        let row = conn.last_insert_rowid();
        messages.push(row);
        Ok(row)
    };
    let received = add(text, now, "received", &phone, &business)?;
    let mut last = now;
    if matches!(bot.as_deref(), Some("started" | "in_progress")) {
        last = now + 1;
        add(reply, last, "sent", &business, &phone)?;
        conn.execute("UPDATE contacts SET bot_status = 'in_progress' WHERE id = ?1", [id])?;
    }
    if let Some(kind) = rich {
        make_rich(conn, received, id, kind, now)?;
    }
    conn.execute(
        "UPDATE contacts SET last_activity = ?1 WHERE id = ?2",
        params![last, id],
    )?;
    // Each message carries its contact as it is after the writes.
    messages
        .into_iter()
        .map(|m| Ok(Event::message("message_created", payloads::message_created(conn, m)?)))
        .collect()
}

/// Give received message `message` the attachments or rich field of `kind`
/// (a reply quotes the contact's last sent message).
fn make_rich(conn: &Connection, message: i64, contact: i64, kind: &str, now: i64) -> rusqlite::Result<()> {
    let earlier: String = conn
        .query_row(
            "SELECT text FROM messages WHERE contact_id = ?1 AND status = 'sent' ORDER BY created_at DESC LIMIT 1",
            [contact],
            |r| r.get(0),
        )
        .optional()?
        .unwrap_or_else(|| "Hello! How can we help?".into());
    let (attachments, rich) = rich_fields(kind, rand::rng().random(), &earlier, now);
    conn.execute(
        "UPDATE messages SET attachments = ?1, rich = ?2 WHERE id = ?3",
        params![attachments.map(|a| a.to_string()), rich.map(|r| r.to_string()), message],
    )?;
    Ok(())
}

/// The customer of `uuid` writes `text` now, as the live activity would
/// (tests choose who and when). False when there is no such contact.
/// With `rich`, the message also carries that documented rich kind.
pub async fn customer_writes_to(state: &Shared, uuid: &str, text: &str, rich: Option<&'static str>) -> ApiResult<bool> {
    let (uuid, text) = (uuid.to_string(), text.to_string());
    let events = state
        .db_now(move |conn, now| {
            let found: Option<(i64, String, String, String)> = conn
                .query_row(
                    "SELECT c.id, COALESCE(c.phone, c.bsuid, ''), c.source, COALESCE(ch.phone, '') FROM contacts c
                     LEFT JOIN channels ch ON ch.id = c.channel_id WHERE c.uuid = ?1",
                    [&uuid],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .optional()?;
            let Some((id, phone, source, business)) = found else {
                return Ok(None);
            };
            let message = hex32(&mut rand::rng());
            conn.execute(
                "INSERT INTO messages (uuid, contact_id, text, created_at, status, channel, sender, recipient)
                 VALUES (?1, ?2, ?3, ?4, 'received', ?5, ?6, ?7)",
                params![message, id, text, now, source, phone, business],
            )?;
            let row = conn.last_insert_rowid();
            if let Some(kind) = rich {
                make_rich(conn, row, id, kind, now)?;
            }
            conn.execute("UPDATE contacts SET last_activity = ?1 WHERE id = ?2", params![now, id])?;
            let m = payloads::message_created(conn, row)?;
            Ok(Some(vec![Event::message("message_created", m)]))
        })
        .await?;
    match events {
        None => Ok(false),
        Some(events) => {
            emit(state, events).await;
            Ok(true)
        }
    }
}

/// A contact removed outside the API (the dashboard), with its messages and
/// send-requests; `contact_deleted` carries its uuid and the time.
pub async fn delete_contact(state: &Shared, uuid: &str) -> ApiResult<bool> {
    let uuid = uuid.to_string();
    let gone = state
        .db_now(move |conn, now| {
            let tx = conn.transaction()?;
            let id: Option<i64> = tx
                .query_row("SELECT id FROM contacts WHERE uuid = ?1", [&uuid], |r| r.get(0))
                .optional()?;
            let Some(id) = id else {
                return Ok(None);
            };
            let contact = payloads::contact_deleted(&uuid, now);
            for table in ["messages", "send_requests"] {
                tx.execute(&format!("DELETE FROM {table} WHERE contact_id = ?1"), [id])?;
            }
            tx.execute("DELETE FROM contacts WHERE id = ?1", [id])?;
            tx.commit()?;
            Ok(Some(contact))
        })
        .await?;
    match gone {
        None => Ok(false),
        Some(contact) => {
            emit(state, vec![Event::contact("contact_deleted", contact)]).await;
            Ok(true)
        }
    }
}

/// While the account has a webhook, send-requests' delivery steps become
/// `message_status_updated` events as they happen, not only when someone
/// polls GET /messages/status or the live activity ticks: a receiver needs
/// them to show a message delivered and read. Without a webhook nothing is
/// done, so the event log keeps its old rhythm.
pub async fn statuses(state: Shared, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if state.hooks.subscription().is_none() {
            continue;
        }
        let step_ms = state.status_step_ms;
        match state
            .db_now(move |conn, now| progress_events(conn, step_ms, None, now))
            .await
        {
            Ok(events) => emit(&state, events).await,
            Err(e) => tracing::warn!(error = ?e, "status tick failed"),
        }
    }
}
