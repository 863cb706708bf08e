//! Whose key this is (GET /auth/me), for what needs "me" when no
//! `user_email` is configured: Mine is then the key's user.

use crate::cli::Ctx;

/// The configured email, else (talking to the service with a key, not
/// through a hub, which names its agents itself) the key's user's email
/// from GET /auth/me. `None` when neither says.
pub async fn me_or_key_user(ctx: &mut Ctx<'_>, configured: Option<String>) -> Option<String> {
    if let Some(email) = configured.filter(|e| !e.trim().is_empty()) {
        return Some(email);
    }
    let through_hub = ctx
        .settings()
        .ok()?
        .hub_url
        .as_deref()
        .is_some_and(|u| !u.trim().is_empty());
    if through_hub {
        return None;
    }
    let client = ctx.client().ok()?;
    match client.key_user().await {
        Ok(u) if !u.email.trim().is_empty() => Some(u.email.trim().to_string()),
        _ => None,
    }
}
