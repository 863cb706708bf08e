//! Custom field values: decoding (a checkbox value arrives as a string that
//! holds a JSON array) and validation against the field's type and options
//! before a write. The server's word is still final.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::open_enum;

open_enum!(
    /// Type of a custom field.
    FieldType {
        Text => "text",
        Email => "email",
        Number => "number",
        Date => "date",
        Dropdown => "dropdown",
        Checkbox => "checkbox",
    }
);

/// A custom field's value: one string, or a list for checkbox fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldValue {
    Text(String),
    List(Vec<String>),
}

impl Default for FieldValue {
    fn default() -> Self {
        FieldValue::Text(String::new())
    }
}

impl FieldValue {
    /// A short human rendering: lists joined with ", ".
    pub fn display(&self) -> String {
        match self {
            FieldValue::Text(s) => s.clone(),
            FieldValue::List(items) => items.join(", "),
        }
    }

    /// The value as the write body wants it: a string, or an array for a
    /// checkbox.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            FieldValue::Text(s) => serde_json::Value::String(s.clone()),
            FieldValue::List(items) => serde_json::Value::from(items.clone()),
        }
    }

    /// True when nothing is set.
    pub fn is_empty(&self) -> bool {
        match self {
            FieldValue::Text(s) => s.is_empty(),
            FieldValue::List(items) => items.is_empty(),
        }
    }

    fn from_json(v: serde_json::Value) -> FieldValue {
        match v {
            serde_json::Value::String(s) => {
                let trimmed = s.trim_start();
                if trimmed.starts_with('[')
                    && let Ok(items) = serde_json::from_str::<Vec<serde_json::Value>>(&s)
                {
                    return FieldValue::List(items.into_iter().map(json_scalar_text).collect());
                }
                FieldValue::Text(s)
            }
            serde_json::Value::Array(items) => FieldValue::List(items.into_iter().map(json_scalar_text).collect()),
            serde_json::Value::Null => FieldValue::Text(String::new()),
            other => FieldValue::Text(other.to_string()),
        }
    }
}

fn json_scalar_text(v: serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s,
        other => other.to_string(),
    }
}

impl<'de> Deserialize<'de> for FieldValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(FieldValue::from_json(serde_json::Value::deserialize(d)?))
    }
}

impl Serialize for FieldValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

/// `customFieldsMetadata` entry: the value with the field's type and options.
/// Written back as the API writes it: an unset value is `null`, and
/// `options` appears only on choice fields (or when it has any).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct FieldMeta {
    #[serde(default)]
    pub value: FieldValue,
    #[serde(rename = "type", default = "unknown_field_type")]
    pub field_type: FieldType,
    #[serde(default, deserialize_with = "super::lenient::null_as_default")]
    pub options: Vec<String>,
}

impl Serialize for FieldMeta {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        match &self.value {
            FieldValue::Text(t) if t.is_empty() => map.serialize_entry("value", &serde_json::Value::Null)?,
            v => map.serialize_entry("value", v)?,
        }
        map.serialize_entry("type", &self.field_type)?;
        if !self.options.is_empty() || matches!(self.field_type, FieldType::Checkbox | FieldType::Dropdown) {
            map.serialize_entry("options", &self.options)?;
        }
        map.end()
    }
}

fn unknown_field_type() -> FieldType {
    FieldType::Other(String::new())
}

/// Checks `value` against a field's type and options, and returns the JSON
/// value to send. The error names the field and the problem.
pub fn validate_field_value(
    name: &str,
    field_type: &FieldType,
    options: &[String],
    value: &FieldValue,
) -> Result<serde_json::Value, String> {
    let single = |what: &str| -> Result<String, String> {
        match value {
            FieldValue::Text(s) => Ok(s.trim().to_string()),
            FieldValue::List(_) => Err(format!("{name}: a {what} field takes one value, not a list")),
        }
    };
    match field_type {
        FieldType::Text | FieldType::Other(_) => match value {
            FieldValue::Text(s) => Ok(serde_json::Value::String(s.clone())),
            FieldValue::List(_) => Err(format!("{name}: a text field takes one value, not a list")),
        },
        FieldType::Email => {
            let s = single("email")?;
            if is_plausible_email(&s) {
                Ok(serde_json::Value::String(s))
            } else {
                Err(format!("{name}: \"{s}\" is not an email address"))
            }
        }
        FieldType::Number => {
            let s = single("number")?;
            match s.parse::<f64>() {
                Ok(n) if n.is_finite() => Ok(serde_json::Value::String(s)),
                _ => Err(format!("{name}: \"{s}\" is not a number")),
            }
        }
        FieldType::Date => {
            let s = single("date")?;
            match chrono::NaiveDate::parse_from_str(&s, "%Y-%m-%d") {
                Ok(_) if s.len() == 10 => Ok(serde_json::Value::String(s)),
                _ => Err(format!("{name}: \"{s}\" is not a date in the form YYYY-MM-DD")),
            }
        }
        FieldType::Dropdown => {
            let s = single("dropdown")?;
            if options.contains(&s) {
                Ok(serde_json::Value::String(s))
            } else {
                Err(format!(
                    "{name}: \"{s}\" is not one of its options ({})",
                    options.join(", ")
                ))
            }
        }
        FieldType::Checkbox => {
            let items: Vec<String> = match value {
                FieldValue::List(items) => items.iter().map(|i| i.trim().to_string()).collect(),
                FieldValue::Text(s) => split_list(s),
            };
            if let Some(bad) = items.iter().find(|i| !options.contains(i)) {
                return Err(format!(
                    "{name}: \"{bad}\" is not one of its options ({})",
                    options.join(", ")
                ));
            }
            Ok(serde_json::Value::from(items))
        }
    }
}

/// Validates several values against a contact's `customFieldsMetadata` and
/// returns the `custom_fields` body to send. Every problem is listed, each
/// naming its field; a name the metadata does not know is a problem too.
pub fn validate_custom_fields(
    values: &BTreeMap<String, FieldValue>,
    metadata: &BTreeMap<String, FieldMeta>,
) -> Result<BTreeMap<String, serde_json::Value>, Vec<String>> {
    let mut body = BTreeMap::new();
    let mut problems = Vec::new();
    for (name, value) in values {
        match metadata.get(name) {
            None => problems.push(format!("{name}: this account has no such custom field")),
            Some(meta) => match validate_field_value(name, &meta.field_type, &meta.options, value) {
                Ok(json) => {
                    body.insert(name.clone(), json);
                }
                Err(problem) => problems.push(problem),
            },
        }
    }
    if problems.is_empty() { Ok(body) } else { Err(problems) }
}

/// Splits comma-separated input, dropping empty items.
pub fn split_list(s: &str) -> Vec<String> {
    s.split(',')
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

fn is_plausible_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !s.chars().any(char::is_whitespace)
}

/// The same email check the forms and the client use; the problem as a
/// sentence (the value passes through the terminal sanitizer).
pub fn checked_email(email: &str) -> Result<(), String> {
    validate_field_value("email", &FieldType::Email, &[], &FieldValue::Text(email.to_string()))
        .map(|_| ())
        .map_err(|e| crate::text::sanitize_line(&e))
}
