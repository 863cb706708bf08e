//! "Me" with no email configured and no hub: the key's user (GET
//! /auth/me), as the CLI's `whoami::me`. Asked at start beside the first
//! page; the answer is kept beside the local index (`<index>.me`, the
//! CLI's file too), so a start from a cached list opens at once on the same
//! person's Mine, and a service out of reach does not empty it.

use std::path::PathBuf;
use std::time::Duration;

use crate::api::{ApiError, Client, KeyUser};

/// How long a start that asked the service for the first page waits for
/// GET /auth/me (asked at the same time).
const WITHIN: Duration = Duration::from_secs(3);
/// How long a start from a cached list waits when nothing was kept.
const CACHED_WITHIN: Duration = Duration::from_secs(1);

type Answer = Result<KeyUser, ApiError>;

/// The question in flight, and where its answer is kept.
pub struct Ask {
    task: tokio::task::JoinHandle<Option<Answer>>,
    kept: Option<PathBuf>,
}

/// Asks, unless an email is configured or this is the demo. `kept` is the
/// local index's file when it is on disk.
pub fn ask(client: &Client, configured: Option<&str>, demo: bool, kept: Option<PathBuf>) -> Option<Ask> {
    if demo || configured.is_some_and(|e| !e.trim().is_empty()) {
        return None;
    }
    let client = client.clone();
    let kept = kept.map(|p| p.with_extension("me"));
    let keep = kept.clone();
    let task = tokio::spawn(async move {
        let answer = tokio::time::timeout(WITHIN, client.key_user()).await.ok()?;
        if let (Ok(u), Some(path)) = (&answer, &keep)
            && let Some(email) = usable(&u.email)
        {
            // Best effort: without the file, an offline start only loses Mine.
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = std::fs::write(path, email);
        }
        Some(answer)
    });
    Some(Ask { task, kept })
}

impl Ask {
    /// The key's user's email. `asked_first_page`: the start waited for the
    /// service already, so it waits for this answer too (3 s at most);
    /// from a cached list, the kept answer is used at once (the new one is
    /// kept for the next start), else it waits 1 s at most.
    pub async fn email(self, asked_first_page: bool) -> Option<String> {
        let kept = self.kept.as_deref().and_then(read_kept);
        if !asked_first_page && kept.is_some() {
            return kept;
        }
        let wait = if asked_first_page { WITHIN } else { CACHED_WITHIN };
        match tokio::time::timeout(wait, self.task).await {
            Ok(Ok(Some(Ok(u)))) => usable(&u.email).or(kept),
            Ok(Ok(Some(Err(e)))) => {
                tracing::info!("the key's user is not known: {e}");
                kept
            }
            _ => {
                tracing::info!("GET /auth/me did not answer in time");
                kept
            }
        }
    }

    /// A hub says who this agent is: the question is dropped.
    pub fn drop_it(self) {
        self.task.abort();
    }
}

/// An email worth using: not empty, short, no control characters.
fn usable(email: &str) -> Option<String> {
    let email = email.trim();
    (!email.is_empty() && email.len() <= 320 && !email.chars().any(char::is_control)).then(|| email.to_string())
}

fn read_kept(path: &std::path::Path) -> Option<String> {
    usable(&std::fs::read_to_string(path).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask_with(answer: Option<Answer>, kept: Option<PathBuf>, never: bool) -> Ask {
        let task = tokio::spawn(async move {
            if never {
                std::future::pending::<()>().await;
            }
            answer
        });
        Ask { task, kept }
    }

    #[tokio::test]
    async fn a_start_from_a_cached_list_uses_the_kept_answer_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let kept = dir.path().join("index.me");
        std::fs::write(&kept, "ana@example.com\n").unwrap();
        // The service never answers: the kept answer.
        let got = ask_with(None, Some(kept.clone()), true).email(false).await;
        assert_eq!(got.as_deref(), Some("ana@example.com"));
        // A start that asked the service: its answer wins; a failure keeps
        // the kept one.
        let user = KeyUser {
            name: "Bea".into(),
            email: " bea@example.com ".into(),
        };
        let fresh = ask_with(Some(Ok(user)), Some(kept.clone()), false).email(true).await;
        assert_eq!(fresh.as_deref(), Some("bea@example.com"));
        let failed = ask_with(Some(Err(ApiError::Timeout("1 s".into()))), Some(kept), false)
            .email(true)
            .await;
        assert_eq!(failed.as_deref(), Some("ana@example.com"));
    }

    #[test]
    fn an_email_with_a_control_character_is_not_used() {
        assert_eq!(usable("a@b.example\u{1b}[2J"), None);
        assert_eq!(usable("   "), None);
        assert_eq!(usable(&"a".repeat(400)), None);
        assert_eq!(usable(" a@b.example "), Some("a@b.example".into()));
    }
}
