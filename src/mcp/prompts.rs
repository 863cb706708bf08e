//! Prompts for the jobs assistants are asked to do (summarize a
//! conversation, draft a reply in the account's tone, triage Unassigned),
//! and a conversation as a resource, `frontdesk://contact/ID`.
//!
//! Each prompt carries the data it needs as quoted JSON behind the
//! untrusted-data note, read through the same tools (so the same bounds,
//! freshness and refusals apply).

use rmcp::ErrorData as McpError;
use rmcp::model::{
    GetPromptResult, JsonObject, Prompt, PromptArgument, PromptMessage, ReadResourceResult, ResourceContents,
    ResourceTemplate, Role,
};
use serde_json::{Value, json};

use super::inbox::{Inbox, UNTRUSTED};

/// The conversation resource's URI prefix.
pub const CONTACT_URI: &str = "frontdesk://contact/";

fn contact_arg() -> Option<Vec<PromptArgument>> {
    Some(vec![
        PromptArgument::new("contact")
            .with_description("The contact's uuid")
            .with_required(true),
    ])
}

pub fn all() -> Vec<Prompt> {
    let mut out = vec![
        Prompt::new(
            "summarize_conversation",
            Some("Summarize a conversation: what the customer wants, what was done, what is open"),
            contact_arg(),
        ),
        Prompt::new(
            "draft_reply_in_tone",
            Some("Draft the next reply in the account's tone (from the agents' own earlier replies), kept as a draft"),
            contact_arg(),
        ),
        Prompt::new(
            "triage_unassigned",
            Some("Go through the Unassigned conversations and propose, for each, who takes it, tags, or closing"),
            None::<Vec<PromptArgument>>,
        ),
    ];
    for (p, title) in out.iter_mut().zip([
        "Summarize a conversation",
        "Draft a reply in our tone",
        "Triage Unassigned",
    ]) {
        p.title = Some(title.into());
    }
    out
}

pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(format!("{CONTACT_URI}{{uuid}}"), "conversation")
            .with_title("A conversation")
            .with_description("A contact's details and latest messages (up to 50), as JSON")
            .with_mime_type("application/json"),
    ]
}

fn quoted(v: &Value) -> String {
    format!("{UNTRUSTED}\n\n{v}")
}

fn arg<'a>(args: &'a Option<JsonObject>, key: &str) -> Result<&'a str, McpError> {
    args.as_ref()
        .and_then(|a| a.get(key))
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| McpError::invalid_params(format!("the prompt needs `{key}`"), None))
}

impl Inbox {
    /// A contact's details and latest messages, through the tools.
    async fn conversation(&self, uuid: &str) -> Result<Value, String> {
        let details = self.contact_details(&json_args(json!({ "contact": uuid }))).await?;
        let thread = self
            .read_thread(&json_args(json!({ "contact": uuid, "limit": 50 })))
            .await?;
        Ok(json!({ "contact": details.data, "thread": thread.data }))
    }

    pub(super) async fn prompt(&self, name: &str, args: &Option<JsonObject>) -> Result<GetPromptResult, McpError> {
        let failed = |e: String| McpError::invalid_params(e, None);
        let (description, text) = match name {
            "summarize_conversation" => {
                let uuid = arg(args, "contact")?;
                let data = self.conversation(uuid).await.map_err(failed)?;
                (
                    "Summarize a conversation",
                    format!(
                        "Summarize this customer conversation for a colleague in at most five lines: what the \
                         customer wants, what has been done, and what is still open (and who it waits on). If \
                         `thread.oldestReached` is false, say the summary covers the latest messages only.\n\n{}",
                        quoted(&data)
                    ),
                )
            }
            "draft_reply_in_tone" => {
                let uuid = arg(args, "contact")?;
                let mut data = self.conversation(uuid).await.map_err(failed)?;
                let snippets: Vec<Value> = self
                    .snippets()
                    .await
                    .unwrap_or_default()
                    .iter()
                    .take(30)
                    .map(|s| json!({ "name": s.name, "text": s.text }))
                    .collect();
                data["snippets"] = json!(snippets);
                (
                    "Draft a reply in the account's tone",
                    format!(
                        "Write the next reply to this customer in the account's tone: the agents' snippets and \
                         their own earlier replies below (messages not `received`) show the greeting, length and \
                         sign-off to use; start from a snippet when one fits. Answer what \
                         the customer last asked; do not promise what the thread does not support. Keep it under \
                         4,096 characters and save it with the `draft_reply` tool for contact {uuid}; never send \
                         it.\n\n{}",
                        quoted(&data)
                    ),
                )
            }
            "triage_unassigned" => {
                let list = self
                    .list_contacts(&json_args(json!({ "view": "Unassigned", "limit": 20 })))
                    .await
                    .map_err(failed)?;
                (
                    "Triage Unassigned",
                    format!(
                        "These conversations are open and assigned to nobody. For each, read it (`read_thread`) \
                         and propose one action with a one-line reason: assign (use `list_collaborators` for who \
                         is available and their load), tag (`list_tags`), or close. Propose first; make changes \
                         only once the agent agrees. If `complete` is false, say the list may miss some.\n\n{}",
                        quoted(&list.data)
                    ),
                )
            }
            other => {
                return Err(McpError::invalid_params(
                    format!("no prompt called {:?}", crate::text::sanitize_line(other)),
                    None,
                ));
            }
        };
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)]).with_description(description))
    }

    pub(super) async fn resource(&self, uri: &str) -> Result<ReadResourceResult, McpError> {
        let uuid = uri
            .strip_prefix(CONTACT_URI)
            .filter(|u| !u.is_empty() && !u.contains('/'))
            .ok_or_else(|| {
                McpError::resource_not_found(
                    format!(
                        "no resource {:?}: conversations are {CONTACT_URI}UUID",
                        crate::text::sanitize_line(uri)
                    ),
                    None,
                )
            })?;
        let data = self
            .conversation(uuid)
            .await
            .map_err(|e| McpError::resource_not_found(e, None))?;
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(data.to_string(), uri).with_mime_type("application/json"),
        ]))
    }
}

fn json_args(v: Value) -> JsonObject {
    match v {
        Value::Object(m) => m,
        _ => JsonObject::new(),
    }
}
