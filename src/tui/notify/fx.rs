//! Running the agent's `notify_command` off the loop.

/// What the slice asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum NotifyEffect {
    /// Runs `argv` with the contact and the text in its environment.
    Run {
        argv: Vec<String>,
        contact: String,
        text: String,
    },
}

/// What running it answers: why it did not start, if it did not.
#[derive(Debug, Clone, PartialEq)]
pub struct NotifyMsg(pub Result<(), String>);

/// Starts the command and reaps it on a blocking thread (never waited on
/// in the loop).
pub async fn perform(e: NotifyEffect) -> NotifyMsg {
    let NotifyEffect::Run { argv, contact, text } = e;
    NotifyMsg(crate::notify::run_command(&argv, &contact, &text).map(|mut child| {
        drop(tokio::task::spawn_blocking(move || child.wait()));
    }))
}
