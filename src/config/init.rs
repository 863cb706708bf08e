//! Writing a new config file (`frontdesk config init` and the first-run
//! screen): commented, one profile, mode 0600 from its creation.

use std::path::Path;

/// What a new file holds.
#[derive(Clone)]
pub struct NewProfile {
    pub profile: String,
    pub base_url: String,
    pub api_key: String,
    pub user_uuid: Option<String>,
    /// The agent's collaborator email ("Me").
    pub user_email: Option<String>,
}

impl std::fmt::Debug for NewProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewProfile")
            .field("profile", &self.profile)
            .field("base_url", &self.base_url)
            .field("api_key", &"<redacted>")
            .field("user_uuid", &self.user_uuid)
            .field("user_email", &self.user_email)
            .finish()
    }
}

/// A TOML string literal (quotes and escapes done by the toml crate).
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A TOML key for a table header: bare when it can be, else quoted on one
/// line with its escapes (dots, spaces, quotes, `]`, newlines), by toml_edit.
fn key(s: &str) -> String {
    toml_edit::Key::new(s).display_repr().into_owned()
}

/// The file's text: every setting explained, the account filled in.
pub fn render(p: &NewProfile) -> String {
    let mut account = format!(
        "base_url = {}\napi_key = {}\n",
        quoted(p.base_url.trim()),
        quoted(p.api_key.trim())
    );
    match p.user_uuid.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
        Some(u) => account.push_str(&format!("user_uuid = {}\n", quoted(u))),
        None => account.push_str("# user_uuid = \"…\"   # your own user, for availability and custom status\n"),
    }
    match p.user_email.as_deref().map(str::trim).filter(|e| !e.is_empty()) {
        Some(e) => account.push_str(&format!("user_email = {}\n", quoted(e))),
        None => account
            .push_str("# user_email = \"you@example.com\"   # \"Me\": your collaborator email, for the Mine view\n"),
    }
    let (head, section) = if p.profile == super::settings::DEFAULT_PROFILE {
        (String::new(), account)
    } else {
        (
            format!("default_profile = {}\n\n", quoted(&p.profile)),
            format!("[profiles.{}]\n{account}", key(&p.profile)),
        )
    };
    format!(
        "# frontdesk configuration (written by `frontdesk config init`).\n\
         # Flags beat the environment, which beats this file.\n\
         # Keep it readable by you alone: it holds an API key (chmod 600).\n\
         \n\
         {head}\
         # refresh_secs = 5       # how often the TUI refreshes\n\
         # timeout_secs = 15      # per request attempt\n\
         # bell = false           # ring the bell on a new message\n\
         # theme = \"dark\"         # dark, light, high-contrast, mono, or a theme file's path\n\
         # mouse = false          # click and wheel (off keeps terminal selection working)\n\
         # title = true           # \"frontdesk · 3 waiting\" in the terminal title\n\
         # image_previews = true  # images inline in the thread (kitty, sixel, iTerm2 terminals)\n\
         # hyperlinks = true      # links in the thread open with a click (OSC 8)\n\
         \n\
         # The local index of the account (customers' data on this machine; see the README):\n\
         # cache = true           # false: keep it in memory only (or pass --no-cache)\n\
         # sync_rate = 5          # background requests per second while syncing, 0: no limit\n\
         # full_sync_minutes = 30 # how often the whole account is walked again\n\
         \n\
         # [keys]                 # your own keys: action = [\"key\", …] (see `?` in the app)\n\
         # close = [\"c\", \"x\"]\n\
         # next = [\"j\", \"down\", \"ctrl-n\"]\n\
         \n\
         {section}"
    )
}

/// Writes `text` to `path`, mode 0600 (the key is never readable by others,
/// not even for a moment: the text goes to a private file renamed into
/// place). An existing file is replaced only with `overwrite`; a symlink is
/// written through, a read-only file refused (`save::rewrite`). The folder
/// is created (0700) if missing.
pub fn write(path: &Path, text: &str, overwrite: bool) -> Result<(), String> {
    super::save::rewrite(path, true, |old| match old {
        Some(_) if !overwrite => Err(super::error::ConfigError::new(format!(
            "{} exists already (pass --force to replace it)",
            super::error::shown(path)
        ))),
        _ => Ok(text.to_string()),
    })
    .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests;
