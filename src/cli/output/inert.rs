//! Making outside text inert for the CLI's tables and records.

/// Makes server text inert for one table cell or record line (see
/// `crate::text::sanitize`: escape sequences show as `␛[…`, controls as
/// their visible pictures; line breaks become `⏎ `).
pub fn sanitize(s: &str) -> String {
    crate::text::sanitize_line(s)
}

/// Like `sanitize`, but keeps line breaks (for multi-line record values such
/// as notes).
pub(crate) fn sanitize_multiline(s: &str) -> String {
    crate::text::sanitize(s, true).into_owned()
}
