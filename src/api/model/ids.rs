//! Ids that must not be mixed up: a contact's, a message's and a
//! template's uuids are all 32 hex digits, so a plain `&str` lets one pass
//! for another. Each is its own type; it reads as `str` (`Deref`,
//! `AsRef<str>`, `Display`) and is written to JSON as the bare string.
//!
//! A contact call takes a contact id:
//!
//! ```no_run
//! # async fn f(c: frontdesk::api::Client, id: frontdesk::api::ContactId) {
//! let _ = c.get_contact(&id, false).await;
//! # }
//! ```
//!
//! and refuses a message id:
//!
//! ```compile_fail
//! # async fn f(c: frontdesk::api::Client, id: frontdesk::api::MessageId) {
//! let _ = c.get_contact(&id, false).await;
//! # }
//! ```

macro_rules! id_type {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            pub fn new(id: impl Into<String>) -> Self {
                $name(id.into())
            }
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl std::ops::Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                $name(s)
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                $name(s.to_string())
            }
        }

        impl From<&String> for $name {
            fn from(s: &String) -> Self {
                $name(s.clone())
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }
    };
}

id_type!(
    /// A contact's uuid.
    ContactId
);
id_type!(
    /// A message's uuid (a thread entry or a send-request).
    MessageId
);
id_type!(
    /// A message template's uuid.
    TemplateId
);

#[cfg(test)]
mod tests;
