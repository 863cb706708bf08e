//! The API key and its secrecy: it never shows in `Debug`, `Display`, or
//! any text that came back from the network.

/// An API key. Its `Debug` and `Display` never show the key.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into())
    }
    /// The secret itself, for the Authorization header only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

impl std::fmt::Display for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}

/// A character that can be part of a key-like token; the key is redacted
/// only where the characters around it are not.
fn token_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// Replaces every occurrence of `key` that stands whole, as a token (in a
/// URL, a header, a sentence), with `<redacted>`. Inside a longer word it is
/// left alone: a one-letter key must not turn "unknown" into "un<redacted>nown".
pub(crate) fn redact(text: &str, key: &str) -> String {
    if key.is_empty() || !text.contains(key) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (at, _) in text.match_indices(key) {
        if at < copied {
            continue;
        }
        let head = &text[..at];
        // A percent escape (`%3D`) ends a token in a URL.
        let escaped = head.len() >= 3 && head.is_char_boundary(head.len() - 3) && {
            let e = &head[head.len() - 3..];
            e.starts_with('%') && e[1..].chars().all(|c| c.is_ascii_hexdigit())
        };
        let before = head.chars().next_back();
        let after = text[at + key.len()..].chars().next();
        let whole = (escaped || !before.is_some_and(token_char)) && !after.is_some_and(token_char);
        if whole {
            out.push_str(&text[copied..at]);
            out.push_str("<redacted>");
            copied = at + key.len();
        }
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests;
