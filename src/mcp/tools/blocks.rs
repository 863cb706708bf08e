//! What every tool's schema is built of: the schema object, common inputs
//! and outputs, the four hints, and the `Tool` they make.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Value, json};

fn schema(v: Value) -> Arc<JsonObject> {
    match v {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

pub(super) fn contact() -> Value {
    json!({ "type": "string", "minLength": 1, "description": "The contact's uuid" })
}

/// An input schema: these properties, these required, nothing else.
pub(super) fn input(required: &[&str], properties: Value) -> Value {
    json!({ "type": "object", "properties": properties, "required": required, "additionalProperties": false })
}

pub(super) fn limit(max: usize, default: usize) -> Value {
    json!({ "type": "integer", "minimum": 1, "description":
        format!("At most this many (default {default}; above {max} gives {max} and says so)") })
}

pub(super) fn cursor() -> Value {
    json!({ "type": "string", "description": "`nextCursor` from the previous page, with the same other arguments" })
}

/// How fresh and complete the answer is: on every listing.
pub(super) fn freshness() -> Value {
    json!({
        "asOf": { "type": ["string", "null"], "description": "When the index last matched the service (RFC 3339)" },
        "complete": { "type": "boolean", "description": "false: a partial answer, `missing` says what is missing" },
        "missing": { "type": "array", "items": { "type": "string" } }
    })
}

fn contact_out() -> Value {
    json!({ "type": "object", "required": ["uuid", "name", "open"], "properties": {
        "uuid": { "type": "string" }, "name": { "type": "string" }, "open": { "type": "boolean" },
        "phone": { "type": "string" }, "assignee": { "type": "string" }, "team": { "type": "string" },
        "tags": { "type": "array", "items": { "type": "string" } },
        "last_activity": { "type": "string" }
    } })
}

/// An output schema: an object with these properties (some required).
pub(super) fn output(required: &[&str], properties: Value) -> Value {
    json!({ "type": "object", "properties": properties, "required": required })
}

/// One contact as the service has it now (`contact_details`, the lookups).
pub(super) fn details_out() -> Value {
    let mut details = contact_out();
    details["properties"]["note"] = json!({ "type": ["string", "null"] });
    details["properties"]["custom_fields"] = json!({});
    details["properties"]["created_at"] = json!({ "type": ["string", "null"] });
    details["properties"]["bsuid"] = json!({ "type": "string" });
    details
}

pub(super) fn listing() -> Value {
    let mut p = freshness();
    p["contacts"] = json!({ "type": "array", "items": contact_out() });
    p["total"] = json!({ "type": "integer" });
    p["nextCursor"] = json!({ "type": ["string", "null"] });
    p["limitNote"] = json!({ "type": "string" });
    output(&["contacts", "total", "nextCursor", "asOf", "complete", "missing"], p)
}

pub(super) fn written() -> Value {
    output(
        &["done", "contact"],
        json!({ "done": { "type": "string" }, "contact": contact_out() }),
    )
}

/// The hints: (read only, destructive, idempotent, open world).
pub(super) struct Hints(pub(super) bool, pub(super) bool, pub(super) bool, pub(super) bool);

pub(super) const READ_LOCAL: Hints = Hints(true, false, true, false);
pub(super) const READ_SERVICE: Hints = Hints(true, false, true, true);

pub(super) fn tool(
    name: &'static str,
    title: &str,
    description: &'static str,
    hints: Hints,
    input: Value,
    out: Value,
) -> Tool {
    let Hints(read_only, destructive, idempotent, open_world) = hints;
    let annotations = ToolAnnotations::with_title(title)
        .read_only(read_only)
        .destructive(destructive)
        .idempotent(idempotent)
        .open_world(open_world);
    Tool::new(name, description, schema(input))
        .with_title(title)
        .with_raw_output_schema(schema(out))
        .with_annotations(annotations)
}
