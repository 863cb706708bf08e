//! `frontdesk messages …`: list, send, status, delete.

use clap::{Args, Subcommand};
use serde::Serialize;

use super::shared::{CursorArgs, non_empty, print_object, print_page, walk_list};
use crate::api::{ContactId, Deletion, Message, MessageId, MessageSendRequest, SendMessage, SentMessage};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, api_err};
use crate::cli::output::{Recordable, Tabular, local_time, truncate};

#[derive(Debug, Subcommand)]
pub enum MessagesCmd {
    /// List a contact's messages, newest first
    List {
        contact_uuid: String,
        #[command(flatten)]
        position: CursorArgs,
    },
    /// Send a text, a template, or a file by URL (--image, --document, --audio, --video) to a contact
    Send(SendArgs),
    /// Show the delivery status of a message sent through the interface
    Status { message_uuid: String },
    /// Delete the service's copy of a message
    Delete { message_uuid: String },
}

#[derive(Debug, Args)]
pub struct SendArgs {
    pub contact_uuid: String,
    /// The text to send (refused by the service 24 hours after the contact last wrote); with a file, its caption
    #[arg(
        long,
        required_unless_present_any = ["template", "image", "document", "audio", "video"],
        conflicts_with = "template"
    )]
    pub text: Option<String>,
    #[command(flatten)]
    pub media: super::send_media::MediaArgs,
    /// Template uuid to send instead of free text
    #[arg(long)]
    pub template: Option<String>,
    /// A template placeholder value (repeatable, in order)
    #[arg(long = "value", value_name = "V", requires = "template")]
    pub values: Vec<String>,
    /// Channel uuid to send from (default: the main channel)
    #[arg(long)]
    pub channel: Option<String>,
}

/// The request for a send, given the contact's identifier and source.
pub fn send_body(args: &SendArgs, to: &str, from: &str) -> SendMessage {
    if let Some((kind, url)) = args.media.file() {
        let mut body = SendMessage::media(to, from, kind, url, args.text.clone().unwrap_or_default());
        body.channel_uuid = args.channel.clone();
        return body;
    }
    let mut body = match (&args.text, &args.template) {
        (_, Some(t)) => SendMessage::template(to, from, t.clone(), args.values.clone()),
        (Some(text), None) => SendMessage::text(to, from, text.clone()),
        (None, None) => SendMessage::text(to, from, ""),
    };
    body.channel_uuid = args.channel.clone();
    body
}

/// What `messages delete` prints: the uuid and that it is gone (`already`:
/// an earlier attempt whose answer was lost deleted it).
#[derive(Debug, Serialize)]
pub struct Deleted {
    pub uuid: String,
    pub deleted: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub already: bool,
}

impl Recordable for Deleted {
    fn fields(&self) -> Vec<(String, String)> {
        let deleted = if self.already { "yes (already deleted)" } else { "yes" };
        vec![("uuid".into(), self.uuid.clone()), ("deleted".into(), deleted.into())]
    }
}

pub async fn run(ctx: &mut Ctx<'_>, cmd: MessagesCmd) -> Result<(), CliError> {
    match cmd {
        MessagesCmd::List { contact_uuid, position } => {
            let uuid = non_empty("the contact uuid", &contact_uuid)?.to_string();
            let client = ctx.client()?;
            let what = format!("messages list {uuid}");
            if position.all {
                let pages = client.walk_messages(&ContactId::new(uuid.clone()));
                walk_list(ctx, &what, pages).await
            } else {
                let page = client
                    .list_messages(&ContactId::new(uuid.clone()), &position.request())
                    .await
                    .map_err(api_err(what))?;
                print_page(ctx, page)
            }
        }
        MessagesCmd::Send(args) => {
            let uuid = non_empty("the contact uuid", &args.contact_uuid)?.to_string();
            if let Some(text) = &args.text
                && text.trim().is_empty()
            {
                return Err(CliError::usage("messages send: --text must not be empty"));
            }
            args.media.check()?;
            if !args.values.is_empty() && args.template.is_none() {
                return Err(CliError::usage("messages send: --value goes with --template"));
            }
            let what = format!("messages send {uuid}");
            let client = ctx.client()?;
            // The send goes from the contact's channel (or the account's
            // main one) to its phone number, or else its bsuid.
            let contact = client
                .get_contact(&crate::api::ContactId::new(uuid.clone()), false)
                .await
                .map_err(api_err(format!("{what}: reading the contact")))?;
            if contact.phone_number.trim().is_empty() && contact.bsuid.as_deref().is_none_or(|b| b.trim().is_empty()) {
                return Err(CliError::Other(format!(
                    "{what}: {}; nothing was sent",
                    crate::api::NO_RECIPIENT
                )));
            }
            let body = send_body(&args, &contact.phone_number, &contact.source);
            // Before the request: the service dates the message later (its
            // own clock, after the way there), and a hub's event for it
            // then moves the activity to that date, the page's own.
            // (In whole milliseconds, as the service dates.)
            let sent_at = {
                use chrono::DurationRound;
                let now = chrono::Utc::now();
                now.duration_trunc(chrono::Duration::milliseconds(1)).unwrap_or(now)
            };
            let sent = client.send_to(&contact, body).await.map_err(|e| {
                if e.may_have_applied() {
                    // Resending blindly could deliver the message twice.
                    CliError::Other(format!(
                        "{what}: {e}. See whether it was sent: frontdesk messages list {uuid} --page 1"
                    ))
                } else {
                    api_err(what)(e)
                }
            })?;
            note_sent(ctx, &uuid, sent_at);
            assign::after_reply(ctx, &client, &uuid, &contact).await;
            print_object(ctx, &sent)
        }
        MessagesCmd::Status { message_uuid } => {
            let uuid = non_empty("the message uuid", &message_uuid)?.to_string();
            let client = ctx.client()?;
            let m = client
                .message_status(&MessageId::new(uuid.clone()))
                .await
                .map_err(api_err(format!("messages status {uuid}")))?;
            print_object(ctx, &m)
        }
        MessagesCmd::Delete { message_uuid } => {
            let uuid = non_empty("the message uuid", &message_uuid)?.to_string();
            let client = ctx.client()?;
            let outcome = client
                .delete_message(&MessageId::new(uuid.clone()))
                .await
                .map_err(api_err(format!("messages delete {uuid}")))?;
            let already = outcome == Deletion::AlreadyGone;
            print_object(
                ctx,
                &Deleted {
                    uuid,
                    deleted: true,
                    already,
                },
            )
        }
    }
}

impl Tabular for Message {
    fn headers() -> &'static [&'static str] {
        // TEXT before FROM/TO: a narrow terminal hides columns from the right.
        &["TIME", "STATUS", "TEXT", "FROM", "TO", "UUID"]
    }

    fn row(&self) -> Vec<String> {
        vec![
            local_time(self.created_at),
            self.status.to_string(),
            truncate(&crate::cli::output::sanitize(&self.text), 60),
            self.from.clone(),
            self.to.clone(),
            self.uuid.clone().unwrap_or_default(),
        ]
    }
}

impl Recordable for SentMessage {
    fn fields(&self) -> Vec<(String, String)> {
        vec![
            ("uuid".into(), self.uuid.clone()),
            ("status".into(), self.status.to_string()),
        ]
    }
}

impl Recordable for MessageSendRequest {
    fn fields(&self) -> Vec<(String, String)> {
        let mut f = vec![
            ("uuid".into(), self.uuid.clone()),
            ("status".into(), self.status.to_string()),
        ];
        if let Some(p) = &self.message_status_payload {
            f.push(("id".into(), p.id.clone()));
            f.push(("type".into(), p.status_type.clone()));
            if let Some(d) = &p.destination {
                f.push(("destination".into(), d.clone()));
            }
            if let Some(inner) = &p.payload {
                f.push(("payload type".into(), inner.payload_type.clone()));
                if let Some(id) = &inner.messaging_app_message_id {
                    f.push(("app message id".into(), id.clone()));
                }
            }
        }
        f
    }
}

mod assign;

#[cfg(test)]
mod tests;

/// A send is activity the service's list never dates (no `lastMessageAt`):
/// the index learns it (as of `at`, when the request went), so views and
/// the TUI see the conversation as just active. Dated after the service's
/// own date of the message (the answer's arrival), it would make the
/// conversation's last message read as stale in a TUI sharing the index
/// file, and its Waiting count say `≥` for good. The message went out
/// whatever happens here: a failure is a warning.
fn note_sent(ctx: &mut Ctx<'_>, uuid: &str, at: chrono::DateTime<chrono::Utc>) {
    let Ok(mut index) = super::cache::open_index(ctx) else {
        return;
    };
    if let Err(e) = index.note_activity(uuid, at) {
        let _ = writeln!(
            ctx.err,
            "frontdesk: warning: the send was not noted in the local index: {e}"
        );
    }
}
