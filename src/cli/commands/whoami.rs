//! Whose key this is (GET /auth/me), for what needs "me" when no
//! `user_email` is configured: Mine is then the key's user.

use crate::cli::Ctx;

/// Who "me" is for Mine: the configured email; else, through a hub, the
/// agent's email as the hub knows it (asked within 5 s); else the key's
/// user's email from GET /auth/me. `None` when none says.
pub async fn me(ctx: &mut Ctx<'_>, configured: Option<String>) -> Option<String> {
    if let Some(email) = configured.filter(|e| !e.trim().is_empty()) {
        return Some(email);
    }
    if let Some(hub) = ctx.settings().ok()?.hub().ok()? {
        return match tokio::time::timeout(std::time::Duration::from_secs(5), hub.whoami()).await {
            Ok(Ok(who)) if !who.email.trim().is_empty() => Some(who.email),
            _ => None,
        };
    }
    let client = ctx.client().ok()?;
    match client.key_user().await {
        Ok(u) if !u.email.trim().is_empty() => Some(u.email.trim().to_string()),
        _ => None,
    }
}
