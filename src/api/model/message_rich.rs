//! What a message carries besides its text (the documentation's
//! `message_created` optional fields): attachments, a location, a contact
//! card, reply buttons, an interactive list, the message it replies to
//! (`mesageContext`, sic; `messageContext` is read too) and a forwarded
//! mark.
//!
//! Each field is kept as the JSON it came as, so a message read and
//! written back (the index, `messages list --json`, a hub) loses nothing;
//! the readers below ([`Rich::attachments`], [`Rich::location`], ...) take
//! what they understand and ignore the rest: an odd shape is never an
//! error, it shows nothing. Every string here comes from outside: make it
//! inert (`crate::text`) before it reaches a screen.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The rich fields of a message, flattened into [`super::Message`].
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Rich {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attachments: Option<Value>,
    #[serde(rename = "messageLocation", skip_serializing_if = "Option::is_none")]
    pub location: Option<Value>,
    #[serde(rename = "messageContactCard", skip_serializing_if = "Option::is_none")]
    pub contact_card: Option<Value>,
    #[serde(rename = "messageReplyButton", skip_serializing_if = "Option::is_none")]
    pub reply_button: Option<Value>,
    #[serde(rename = "messageInteractiveList", skip_serializing_if = "Option::is_none")]
    pub interactive_list: Option<Value>,
    /// The documentation spells it `mesageContext`; written back so.
    #[serde(rename = "mesageContext", skip_serializing_if = "Option::is_none")]
    pub context: Option<Value>,
    #[serde(rename = "messageForward", skip_serializing_if = "Option::is_none")]
    pub forward: Option<Value>,
}

impl<'de> Deserialize<'de> for Rich {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Whatever the rest of the message holds, only these keys are
        // read; anything that is not a map gives no rich fields.
        let mut map = match Value::deserialize(d)? {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        let mut take = |key: &str| map.remove(key).filter(|v| !v.is_null());
        let context = take("mesageContext");
        let context = context.or_else(|| take("messageContext"));
        Ok(Rich {
            attachments: take("attachments"),
            location: take("messageLocation"),
            contact_card: take("messageContactCard"),
            reply_button: take("messageReplyButton"),
            interactive_list: take("messageInteractiveList"),
            context,
            forward: take("messageForward"),
        })
    }
}

/// What kind of file an attachment is, guessed from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttachmentKind {
    Image,
    Audio,
    Video,
    Document,
}

impl AttachmentKind {
    /// The word a user reads.
    pub fn label(self) -> &'static str {
        match self {
            AttachmentKind::Image => "image",
            AttachmentKind::Audio => "audio",
            AttachmentKind::Video => "video",
            AttachmentKind::Document => "document",
        }
    }

    fn of(name: &str, content_type: Option<&str>) -> AttachmentKind {
        let declared = content_type.unwrap_or_default().to_ascii_lowercase();
        for (word, kind) in [
            ("image", AttachmentKind::Image),
            ("audio", AttachmentKind::Audio),
            ("video", AttachmentKind::Video),
        ] {
            if declared.starts_with(word) {
                return kind;
            }
        }
        let ext = name
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        match ext.as_str() {
            "jpg" | "jpeg" | "png" | "gif" | "webp" | "bmp" | "heic" | "svg" => AttachmentKind::Image,
            "mp3" | "ogg" | "oga" | "opus" | "m4a" | "aac" | "wav" | "amr" => AttachmentKind::Audio,
            "mp4" | "mov" | "webm" | "3gp" | "mkv" | "avi" => AttachmentKind::Video,
            _ => AttachmentKind::Document,
        }
    }
}

/// One attached file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    pub kind: AttachmentKind,
    /// The file's name: given, or the URL's last path segment.
    pub file_name: String,
    pub url: String,
}

impl Attachment {
    fn from_url(url: &str, name: Option<&str>, content_type: Option<&str>) -> Option<Attachment> {
        // Only web links: `o` hands them to the system's opener, which
        // must never be given a file path or another scheme.
        let url = url.trim();
        if !is_web_link(url) {
            return None;
        }
        let file_name = name
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .unwrap_or_else(|| file_name_of(url));
        Some(Attachment {
            kind: AttachmentKind::of(&file_name, content_type),
            file_name,
            url: url.to_string(),
        })
    }

    fn from_value(v: &Value) -> Option<Attachment> {
        match v {
            Value::String(url) => Attachment::from_url(url, None, None),
            Value::Object(o) => {
                let url = str_of(o, &["url", "link", "href"])?;
                let name = str_of(o, &["filename", "fileName", "file_name", "name"]);
                let kind = str_of(o, &["contentType", "content_type", "type", "mimeType"]);
                Attachment::from_url(url, name, kind)
            }
            _ => None,
        }
    }
}

/// True for an `http(s)://` link with a host.
pub fn is_web_link(url: &str) -> bool {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        &url[8..]
    } else if lower.starts_with("http://") {
        &url[7..]
    } else {
        return false;
    };
    !rest.is_empty() && !rest.starts_with('/') && !url.chars().any(char::is_control)
}

/// The last path segment of a URL, without its query (`file` when it
/// has none).
pub fn file_name_of(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or_default();
    path.trim_end_matches('/')
        .rsplit('/')
        .next()
        .filter(|s| !s.is_empty() && !s.contains(':'))
        .unwrap_or("file")
        .to_string()
}

/// A shared location.
#[derive(Debug, Clone, PartialEq)]
pub struct Location {
    /// Latitude (the documentation's `coordinates.x`).
    pub latitude: f64,
    /// Longitude (`coordinates.y`).
    pub longitude: f64,
}

impl Location {
    /// A link a browser opens on a map.
    pub fn map_link(&self) -> String {
        format!("https://www.google.com/maps?q={},{}", self.latitude, self.longitude)
    }
}

/// One person of a contact card.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CardPerson {
    pub name: String,
    pub phones: Vec<String>,
}

/// Reply buttons or an interactive list: what the customer could pick.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Choices {
    pub header: String,
    pub body: String,
    pub options: Vec<String>,
}

/// The earlier message a reply quotes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Quoted {
    pub text: String,
    /// `sent` or `received` as given (empty when not).
    pub status: String,
}

fn str_of<'a>(o: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a str> {
    keys.iter().find_map(|k| o.get(*k).and_then(Value::as_str))
}

/// A value that may be an object or an object written as a JSON string
/// (the documentation shows an interactive list's metadata so).
fn object(v: &Value) -> Option<Map<String, Value>> {
    match v {
        Value::Object(o) => Some(o.clone()),
        Value::String(s) => match serde_json::from_str(s) {
            Ok(Value::Object(o)) => Some(o),
            _ => None,
        },
        _ => None,
    }
}

fn number(v: Option<&Value>) -> Option<f64> {
    match v? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .filter(|f: &f64| f.is_finite())
}

fn titles(v: Option<&Value>, keys: &[&str]) -> Vec<String> {
    let Some(Value::Array(items)) = v else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|i| match i {
            Value::String(s) => Some(s.clone()),
            Value::Object(o) => str_of(o, keys).map(str::to_string),
            _ => None,
        })
        .filter(|s| !s.trim().is_empty())
        .collect()
}

impl Rich {
    /// True when the message carries nothing besides its text.
    pub fn is_empty(&self) -> bool {
        self.attachments().is_empty()
            && self.location().is_none()
            && self.contact_card().is_empty()
            && self.reply_buttons().is_none()
            && self.interactive_list().is_none()
            && self.quoted().is_none()
            && !self.forwarded()
    }

    /// The attached files: the `attachments` list (URLs, or objects with a
    /// `url`), then a reply-buttons message's media.
    pub fn attachments(&self) -> Vec<Attachment> {
        let mut out: Vec<Attachment> = match &self.attachments {
            Some(Value::Array(items)) => items.iter().filter_map(Attachment::from_value).collect(),
            Some(one @ (Value::String(_) | Value::Object(_))) => Attachment::from_value(one).into_iter().collect(),
            _ => Vec::new(),
        };
        let media = self
            .reply_button
            .as_ref()
            .and_then(|r| r.get("metadata"))
            .and_then(object)
            .and_then(|m| m.get("content").and_then(object))
            .and_then(|c| Attachment::from_value(&Value::Object(c)));
        out.extend(media);
        out
    }

    /// The location, when its coordinates are numbers.
    pub fn location(&self) -> Option<Location> {
        let loc = object(self.location.as_ref()?)?;
        let c = loc.get("coordinates").and_then(object)?;
        let latitude = number(c.get("x").or_else(|| c.get("latitude")).or_else(|| c.get("lat")))?;
        let longitude = number(c.get("y").or_else(|| c.get("longitude")).or_else(|| c.get("lng")))?;
        Some(Location { latitude, longitude })
    }

    /// The people of a contact card, each with a name or a phone.
    pub fn contact_card(&self) -> Vec<CardPerson> {
        let Some(card) = self.contact_card.as_ref().and_then(object) else {
            return Vec::new();
        };
        let people: Vec<Value> = match card.get("contactsInfo") {
            Some(Value::Array(items)) => items.clone(),
            // A card written as one person.
            _ => vec![Value::Object(card.clone())],
        };
        people
            .iter()
            .filter_map(object)
            .map(|p| CardPerson {
                name: str_of(&p, &["name"]).unwrap_or_default().to_string(),
                phones: {
                    let mut phones = titles(p.get("phones"), &["phone", "wa_id"]);
                    phones.extend(str_of(&p, &["phone"]).map(str::to_string));
                    phones
                },
            })
            .filter(|p| !p.name.trim().is_empty() || !p.phones.is_empty())
            .collect()
    }

    /// Reply buttons: their text and options.
    pub fn reply_buttons(&self) -> Option<Choices> {
        let meta = object(self.reply_button.as_ref()?.get("metadata")?)?;
        let content = meta.get("content").and_then(object).unwrap_or_default();
        let choices = Choices {
            header: str_of(&content, &["header"]).unwrap_or_default().to_string(),
            body: str_of(&content, &["text", "caption"]).unwrap_or_default().to_string(),
            options: titles(meta.get("options"), &["title", "text"]),
        };
        (!choices.options.is_empty() || !choices.body.is_empty()).then_some(choices)
    }

    /// An interactive list: header, body and every item ("Section: item").
    pub fn interactive_list(&self) -> Option<Choices> {
        let meta = object(self.interactive_list.as_ref()?.get("metadata")?)?;
        let mut options = Vec::new();
        if let Some(Value::Array(sections)) = meta.get("sections") {
            for s in sections.iter().filter_map(object) {
                let section = str_of(&s, &["title"]).unwrap_or_default().trim().to_string();
                for item in titles(s.get("items"), &["header", "title"]) {
                    options.push(if section.is_empty() {
                        item
                    } else {
                        format!("{section}: {item}")
                    });
                }
            }
        }
        if options.is_empty() {
            options = titles(meta.get("buttons"), &["title"]);
        }
        let choices = Choices {
            header: str_of(&meta, &["header"]).unwrap_or_default().to_string(),
            body: str_of(&meta, &["body"]).unwrap_or_default().to_string(),
            options,
        };
        (!choices.options.is_empty() || !choices.body.is_empty()).then_some(choices)
    }

    /// The message this one replies to.
    pub fn quoted(&self) -> Option<Quoted> {
        let ctx = object(self.context.as_ref()?)?;
        let target = ctx.get("target").and_then(object).unwrap_or_else(|| ctx.clone());
        let text = str_of(&target, &["text"]).or_else(|| str_of(&ctx, &["text"]))?;
        Some(Quoted {
            text: text.to_string(),
            status: str_of(&target, &["status"])
                .or_else(|| str_of(&ctx, &["status"]))
                .unwrap_or_default()
                .to_string(),
        })
    }

    /// True when the message was forwarded.
    pub fn forwarded(&self) -> bool {
        match &self.forward {
            Some(Value::Bool(b)) => *b,
            Some(Value::Object(o)) => o.get("forwarded").and_then(Value::as_bool).unwrap_or(false),
            _ => false,
        }
    }

    /// Every link the message holds, in the order a reader meets them:
    /// attachments, then the location's map. What `o` opens.
    pub fn links(&self) -> Vec<String> {
        let mut out: Vec<String> = self.attachments().into_iter().map(|a| a.url).collect();
        out.extend(self.location().map(|l| l.map_link()));
        out
    }
}

#[cfg(test)]
#[path = "message_rich_tests.rs"]
mod tests;
