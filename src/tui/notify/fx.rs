//! Running the agent's `notify_command` off the loop, and keeping the
//! notifications' snooze.

/// What the slice asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum NotifyEffect {
    /// Runs `argv` with the contact and the text in its environment.
    Run {
        argv: Vec<String>,
        contact: String,
        text: String,
    },
    /// Keeps the notifications' snooze (`crate::notify::quiet`).
    Keep {
        path: std::path::PathBuf,
        quiet: crate::notify::quiet::Quiet,
    },
}

/// What running it answers: why it did not start, if it did not.
#[derive(Debug, Clone, PartialEq)]
pub struct NotifyMsg(pub Result<(), String>);

/// Starts the command and reaps it on a blocking thread (never waited on
/// in the loop).
pub async fn perform(e: NotifyEffect) -> NotifyMsg {
    let (argv, contact, text) = match e {
        NotifyEffect::Run { argv, contact, text } => (argv, contact, text),
        NotifyEffect::Keep { path, quiet } => {
            let kept = tokio::task::spawn_blocking(move || crate::notify::quiet::save(&path, quiet)).await;
            return NotifyMsg(kept.unwrap_or_else(|e| Err(e.to_string())));
        }
    };
    NotifyMsg(crate::notify::run_command(&argv, &contact, &text).map(|mut child| {
        drop(tokio::task::spawn_blocking(move || child.wait()));
    }))
}
