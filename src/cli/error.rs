//! Why a command failed, and the exit code it ends with.

use crate::api::ApiError;

/// Why a command failed, and so its exit code.
#[derive(Debug)]
pub enum CliError {
    /// Bad input or missing configuration: exit 2, no request was made.
    Usage(String),
    /// The service or the network failed: exit 1. `what` names the step.
    Api { what: String, source: ApiError },
    /// Another failure (writing output): exit 1.
    Other(String),
    /// stdout was closed (`| head`): end quietly.
    BrokenPipe,
}

/// The exit code a closed stdout ends with (as a process killed by SIGPIPE
/// would report in a shell).
pub const BROKEN_PIPE_EXIT: i32 = 141;

impl CliError {
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Api { .. } | CliError::Other(_) => 1,
            CliError::BrokenPipe => BROKEN_PIPE_EXIT,
        }
    }

    /// The one line printed on stderr (without the `frontdesk: ` prefix).
    pub fn message(&self) -> Option<String> {
        match self {
            CliError::Usage(m) | CliError::Other(m) => Some(m.clone()),
            CliError::Api { what, source } => Some(format!("{what}: {source}")),
            CliError::BrokenPipe => None,
        }
    }

    pub fn usage(msg: impl Into<String>) -> CliError {
        CliError::Usage(msg.into())
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Other(format!("cannot write the output: {e}"))
        }
    }
}

/// Wraps an API error with the step that failed.
pub(crate) fn api_err(what: impl Into<String>) -> impl FnOnce(ApiError) -> CliError {
    let what = what.into();
    move |source| CliError::Api { what, source }
}
