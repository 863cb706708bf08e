//! Whose key this is (GET /auth/me), for what needs "me" when no
//! `user_email` is configured: Mine is then the key's user.

use std::path::PathBuf;
use std::time::Duration;

use crate::cli::ctx::Ctx;

/// Who "me" is for Mine: the configured email; else, through a hub, the
/// agent's email as the hub knows it; else the key's user's email from
/// GET /auth/me. The answer is kept beside the index for a day: a command
/// does not ask again meanwhile, and with the service out of reach Mine is
/// still the same person's (a command that cannot reach the service still
/// says so within 5 s). `None` when none says.
pub async fn me(ctx: &mut Ctx<'_>, configured: Option<String>) -> Option<String> {
    if let Some(email) = configured.filter(|e| !e.trim().is_empty()) {
        return Some(email);
    }
    let kept = kept_path(ctx);
    let fresh = kept.as_deref().is_some_and(|p| {
        std::fs::metadata(p)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age < KEEP_FOR)
    });
    if fresh && let Some(email) = kept.as_deref().and_then(read_kept) {
        return Some(email);
    }
    match (ask(ctx).await, kept) {
        (Some(email), Some(path)) => {
            // Best effort: without the file, an offline run only loses Mine.
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = std::fs::write(&path, &email);
            Some(email)
        }
        (Some(email), None) => Some(email),
        (None, Some(path)) => read_kept(&path),
        (None, None) => None,
    }
}

/// How long a kept answer is used without asking again.
const KEEP_FOR: Duration = Duration::from_secs(24 * 3600);

fn read_kept(path: &std::path::Path) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty() && s.len() <= 320 && !s.chars().any(char::is_control))
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
