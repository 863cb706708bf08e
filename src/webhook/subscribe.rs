//! Subscribing the hub. The service keeps one webhook per account and
//! `POST /webhooks/subscribe` "creates or updates" it: subscribing the hub
//! replaces whatever received the account's deliveries before (a CRM, an
//! automation). So the hub subscribes only when told (`--subscribe` with
//! `--public-url`), says what it replaces, and `--forward-to` passes every
//! delivery on to that previous receiver (see `relay`).

use serde_json::json;

use crate::text::sanitize_line;

/// The webhook kinds the hub subscribes to.
pub const SUBSCRIPTIONS: &[&str] = &[
    "message_created",
    "message_status_updated",
    "contact_created",
    "contact_updated",
    "contact_deleted",
    "conversation_opened",
    "conversation_closed",
    "agent_status_updated",
];

/// What to tell the admin before subscribing: the service has no way to
/// read the current webhook, so the hub cannot learn what it replaces.
pub fn replacing_notice(forward_to: Option<&str>) -> String {
    let mut s = "subscribing replaces the account's one webhook, whatever it was \
                 (the service does not say which receiver it had)"
        .to_string();
    match forward_to {
        Some(url) => s.push_str(&format!("; every delivery is passed on to {}", sanitize_line(url))),
        None => s.push_str("; pass --forward-to URL with the previous receiver's address to keep it receiving"),
    }
    s
}

/// POST /webhooks/subscribe at `hook_url` with every kind the hub reads.
pub async fn subscribe(base_url: &str, key: &str, hook_url: &str) -> Result<(), String> {
    let resp = reqwest::Client::new()
        .post(format!("{}/webhooks/subscribe", base_url.trim_end_matches('/')))
        .bearer_auth(key)
        .json(&json!({ "url": hook_url, "subscriptions": SUBSCRIPTIONS }))
        .send()
        .await
        .map_err(|_| "the service could not be reached".to_string())?;
    if resp.status().is_success() {
        Ok(())
    } else {
        let status = resp.status();
        let text = resp.text().await.unwrap_or_default();
        let text: String = text.chars().take(200).collect();
        Err(format!("the service answered {status}: {}", sanitize_line(&text)))
    }
}

/// The HMAC secret of a signing proxy: `--webhook-secret-file` (its first
/// line), else the flag or `FRONTDESK_WEBHOOK_SECRET`.
pub fn hmac_secret(flag: Option<&str>, file: Option<&std::path::Path>) -> Result<Option<String>, String> {
    if let Some(path) = file {
        let text = std::fs::read_to_string(path).map_err(|e| {
            format!(
                "cannot read --webhook-secret-file {}: {e}",
                sanitize_line(&path.display().to_string())
            )
        })?;
        let secret = text.lines().next().unwrap_or_default().trim().to_string();
        if secret.is_empty() {
            return Err("--webhook-secret-file is empty".into());
        }
        return Ok(Some(secret));
    }
    Ok(flag.map(str::to_string).filter(|s| !s.is_empty()))
}
