//! The configuration's error and how a path shows in it.

use std::path::Path;

/// A configuration problem, as a sentence naming the file, line and problem.
/// Its text is inert (see `ConfigError::new`): names, values and paths in it
/// came from a file, a flag or the environment.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub(super) String);

impl ConfigError {
    /// The problem, made inert for a terminal: escape sequences and bidi
    /// controls from the file, a flag or the environment show as visible
    /// marks, and it stays one line.
    pub fn new(message: impl AsRef<str>) -> ConfigError {
        ConfigError(crate::text::sanitize_line(message.as_ref()))
    }

    pub fn message(&self) -> &str {
        &self.0
    }
}

/// A path from a flag, the environment or the platform, inert for a
/// message.
pub(crate) fn shown(path: &Path) -> String {
    crate::text::sanitize_line(&path.display().to_string())
}
