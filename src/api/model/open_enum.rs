//! Open value sets: the service may send values the reference never named.
//! They are kept as they are (`Other`), never an error.

/// Declares an enum of known string values plus `Other(String)`, with serde,
/// `Display` and `as_str`.
#[macro_export]
macro_rules! open_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $($variant,)+
            /// A value this client does not know, kept verbatim.
            Other(String),
        }

        impl $name {
            /// The wire value.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $text,)+
                    Self::Other(s) => s.as_str(),
                }
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                match s {
                    $($text => Self::$variant,)+
                    other => Self::Other(other.to_string()),
                }
            }
        }

        impl Default for $name {
            /// Absent or null on the wire: an empty unknown value.
            fn default() -> Self {
                Self::Other(String::new())
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let v = serde_json::Value::deserialize(d)?;
                Ok(match v {
                    serde_json::Value::String(s) => Self::from(s.as_str()),
                    serde_json::Value::Null => Self::Other(String::new()),
                    other => Self::Other(other.to_string()),
                })
            }
        }
    };
}
