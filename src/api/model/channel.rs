//! A channel messages are sent from, and its (open) type.

use serde::{Deserialize, Serialize};

use crate::open_enum;

open_enum!(
    /// Type of a channel (extensions.md: the reference's `messaging_app`
    /// and the types in public use).
    ChannelType {
        MessagingApp => "messaging_app",
        Whatsapp => "whatsapp",
        Facebook => "facebook",
        Instagram => "instagram",
        Telegram => "telegram",
    }
);

/// A channel messages are sent from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Channel {
    pub uuid: String,
    #[serde(default)]
    pub title: String,
    /// Channel type (open set).
    #[serde(default, rename = "type")]
    pub channel_type: ChannelType,
    #[serde(default)]
    pub main: bool,
}
