//! Whose key this is (GET /auth/me), for what needs "me" when no
//! `user_email` is configured: Mine is then the key's user.

use std::path::PathBuf;
use std::time::Duration;

use crate::cli::Ctx;

/// Who "me" is for Mine: the configured email; else, through a hub, the
/// agent's email as the hub knows it; else the key's user's email from
/// GET /auth/me. Each asked within 5 s; the answer is kept beside the
/// index, so with the service out of reach Mine is still the same
/// person's. `None` when none says.
pub async fn me(ctx: &mut Ctx<'_>, configured: Option<String>) -> Option<String> {
    if let Some(email) = configured.filter(|e| !e.trim().is_empty()) {
        return Some(email);
    }
    let kept = kept_path(ctx);
    let asked = ask(ctx).await;
    match (asked, kept) {
        (Some(email), Some(path)) => {
            // Best effort: without the file, an offline run only loses Mine.
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = std::fs::write(&path, &email);
            Some(email)
        }
        (Some(email), None) => Some(email),
        (None, Some(path)) => std::fs::read_to_string(path)
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty() && s.len() <= 320 && !s.chars().any(char::is_control)),
        (None, None) => None,
    }
}

const ASK_WITHIN: Duration = Duration::from_secs(5);

async fn ask(ctx: &mut Ctx<'_>) -> Option<String> {
    if let Some(hub) = ctx.settings().ok()?.hub().ok()? {
        return match tokio::time::timeout(ASK_WITHIN, hub.whoami()).await {
            Ok(Ok(who)) if !who.email.trim().is_empty() => Some(who.email.trim().to_string()),
            _ => None,
        };
    }
    let client = ctx.client().ok()?;
    match tokio::time::timeout(ASK_WITHIN, client.key_user()).await {
        Ok(Ok(u)) if !u.email.trim().is_empty() => Some(u.email.trim().to_string()),
        _ => None,
    }
}

/// `<index file>.me`: whose Mine it was when the service last said.
fn kept_path(ctx: &mut Ctx<'_>) -> Option<PathBuf> {
    if !ctx.settings().ok()?.cache {
        return None;
    }
    let index = super::cache::index_path(ctx).ok()?;
    Some(index.with_extension("me"))
}
