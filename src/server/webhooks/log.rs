//! The event log (`webhook_events`): each event with the receiver's
//! answer, real or the simulated receiver's.

use rusqlite::{Connection, params};
use serde_json::{Value, json};

/// The simulated receiver: every fifth delivery fails, alternating between
/// a server error and a timeout-like gateway error.
pub fn simulated_response(n: i64) -> (Value, bool) {
    if n % 5 == 0 {
        let code = if n % 10 == 0 { 504 } else { 500 };
        let body = json!({ "error": if code == 504 { "upstream timeout" } else { "receiver crashed" } });
        (
            json!({ "body": body, "code": code, "headers": { "content-type": "application/json" } }),
            false,
        )
    } else {
        (
            json!({ "body": { "ok": true }, "code": 200, "headers": { "content-type": "application/json" } }),
            true,
        )
    }
}

pub(super) fn insert(
    conn: &Connection,
    event: &str,
    payload: &str,
    response: &Value,
    success: bool,
    now: i64,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO webhook_events (event, payload, response, success, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![event, payload, response.to_string(), success, now],
    )?;
    Ok(())
}

/// Record a simulated delivery inside the caller's database work.
pub fn record_simulated(conn: &Connection, event: &str, payload: &str, now: i64) -> rusqlite::Result<()> {
    let n: i64 = conn.query_row("SELECT COALESCE(MAX(id), 0) + 1 FROM webhook_events", [], |r| r.get(0))?;
    let (response, success) = simulated_response(n);
    insert(conn, event, payload, &response, success, now)
}
