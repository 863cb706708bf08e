//! `frontdesk contacts create` and `update`: flags, checks before any
//! request, and the writes.

use std::collections::BTreeMap;

use clap::{Args, ValueEnum};

use crate::api::{
    BotAction, ContactFilter, ContactPatch, FieldMeta, FieldValue, NewContact, split_list, validate_field_value,
};
use crate::cli::commands::shared::{non_empty, print_object};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, api_err};

/// The longest note the service accepts, in characters.
pub const MAX_NOTE_CHARS: usize = 1000;

/// `--bot start|end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BotArg {
    Start,
    End,
}

impl From<BotArg> for BotAction {
    fn from(b: BotArg) -> Self {
        match b {
            BotArg::Start => BotAction::Start,
            BotArg::End => BotAction::End,
        }
    }
}

#[derive(Debug, Args)]
pub struct CreateArgs {
    /// The contact's identifier (the phone number for the messaging app)
    #[arg(long)]
    pub identifier: String,
    /// Integration type, e.g. messaging_app
    #[arg(long)]
    pub source: String,
    #[arg(long)]
    pub name: String,
    /// An existing tag (repeatable; commas also separate tags)
    #[arg(long = "tag", value_name = "T")]
    pub tags: Vec<String>,
    /// A custom field value, NAME=VALUE (repeatable; a checkbox takes comma-separated options)
    #[arg(long = "field", value_name = "NAME=VALUE", value_parser = parse_field_arg)]
    pub fields: Vec<(String, String)>,
    /// Email of the collaborator to assign
    #[arg(long, value_name = "EMAIL")]
    pub assign: Option<String>,
    /// Team uuid
    #[arg(long)]
    pub team: Option<String>,
    /// Channel uuid to send from (default: the main channel)
    #[arg(long)]
    pub channel: Option<String>,
    /// Start or end the bot for this contact
    #[arg(long)]
    pub bot: Option<BotArg>,
    /// Free-text note (up to 1000 characters)
    #[arg(long)]
    pub note: Option<String>,
}

#[derive(Debug, Args)]
pub struct UpdateArgs {
    pub uuid: String,
    #[arg(long)]
    pub name: Option<String>,
    /// Replace the tags with these (repeatable; commas also separate tags)
    #[arg(long = "tag", value_name = "T")]
    pub tags: Vec<String>,
    /// A custom field value, NAME=VALUE (repeatable; a checkbox takes comma-separated options)
    #[arg(long = "field", value_name = "NAME=VALUE", value_parser = parse_field_arg)]
    pub fields: Vec<(String, String)>,
    /// Email of the collaborator to assign
    #[arg(long, value_name = "EMAIL", conflicts_with = "unassign")]
    pub assign: Option<String>,
    /// Remove the assigned collaborator
    #[arg(long)]
    pub unassign: bool,
    /// Team uuid
    #[arg(long)]
    pub team: Option<String>,
    /// Start or end the bot for this contact
    #[arg(long)]
    pub bot: Option<BotArg>,
    /// Set the note (up to 1000 characters)
    #[arg(long, conflicts_with = "clear_note")]
    pub note: Option<String>,
    /// Remove the note
    #[arg(long)]
    pub clear_note: bool,
}

/// Parses `NAME=VALUE` (the value may itself hold `=`).
pub fn parse_field_arg(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => Ok((name.trim().to_string(), value.to_string())),
        _ => Err(format!("expected NAME=VALUE, got \"{s}\"")),
    }
}

/// Refuses a note over the service's limit before any request.
pub fn check_note(note: &str) -> Result<(), CliError> {
    let n = note.chars().count();
    if n > MAX_NOTE_CHARS {
        return Err(CliError::usage(format!(
            "the note is {n} characters long; the limit is {MAX_NOTE_CHARS}"
        )));
    }
    Ok(())
}

/// Tags from repeated `--tag`, each possibly comma-separated.
fn tag_list(tags: &[String]) -> Vec<String> {
    tags.iter().flat_map(|t| split_list(t)).collect()
}

/// Checks every `--field` against the field types and returns the body's
/// `custom_fields`. An unknown name or a bad value is a usage error.
pub fn custom_fields_body(
    fields: &[(String, String)],
    meta: &BTreeMap<String, FieldMeta>,
) -> Result<BTreeMap<String, serde_json::Value>, CliError> {
    let mut body = BTreeMap::new();
    for (name, value) in fields {
        let (key, m) = match meta.get_key_value(name.as_str()) {
            Some(found) => found,
            None => {
                // Forgive case when it is unambiguous.
                let mut matches = meta.iter().filter(|(k, _)| k.eq_ignore_ascii_case(name));
                match (matches.next(), matches.next()) {
                    (Some(found), None) => found,
                    _ => {
                        let known: Vec<&str> = meta.keys().map(String::as_str).collect();
                        let known = if known.is_empty() {
                            "the account has none".to_string()
                        } else {
                            format!("known fields: {}", known.join(", "))
                        };
                        return Err(CliError::usage(format!("unknown custom field \"{name}\"; {known}")));
                    }
                }
            }
        };
        let v = validate_field_value(key, &m.field_type, &m.options, &FieldValue::Text(value.clone()))
            .map_err(|e| CliError::usage(format!("invalid custom field value: {e}")))?;
        body.insert(key.clone(), v);
    }
    Ok(body)
}

pub(super) async fn create(ctx: &mut Ctx<'_>, args: CreateArgs) -> Result<(), CliError> {
    if let Some(note) = &args.note {
        check_note(note)?;
    }
    let identifier = non_empty("--identifier", &args.identifier)?.to_string();
    let source = non_empty("--source", &args.source)?.to_string();
    let name = non_empty("--name", &args.name)?.to_string();
    let tags = tag_list(&args.tags);
    let client = ctx.client()?;
    let custom_fields = if args.fields.is_empty() {
        None
    } else {
        // The account's field types ride on contacts; any contact that carries
        // them will do.
        let page = client
            .list_contacts(
                &ContactFilter {
                    include_field_types: true,
                    ..Default::default()
                },
                &Default::default(),
            )
            .await
            .map_err(api_err("contacts create: reading the custom field types"))?;
        let meta = page
            .items
            .into_iter()
            .filter_map(|c| c.custom_fields_metadata)
            .find(|m| !m.is_empty())
            .ok_or_else(|| {
                CliError::usage(
                    "contacts create: cannot check --field: no contact in the account carries custom field types",
                )
            })?;
        Some(custom_fields_body(&args.fields, &meta).map_err(prefix("contacts create"))?)
    };
    let body = NewContact {
        identifier,
        source,
        name,
        tags: if tags.is_empty() { None } else { Some(tags) },
        custom_fields,
        assigned_user: args.assign,
        team_uuid: args.team,
        channel_uuid: args.channel,
        bot_status: args.bot.map(Into::into),
        note: args.note,
    };
    let identifier = body.identifier.clone();
    let c = client.create_contact(&body).await.map_err(|e| {
        if e.may_have_applied() {
            // The contact may exist now: a second create would make a twin.
            CliError::Other(format!(
                "contacts create: {e}. Look it up by its identifier first: {}",
                find_by_identifier(&identifier)
            ))
        } else {
            api_err("contacts create")(e)
        }
    })?;
    print_object(ctx, &c)
}

/// The command that finds a contact by its identifier (there is no lookup
/// endpoint: the list is walked and filtered), quoted for a POSIX shell.
pub fn find_by_identifier(identifier: &str) -> String {
    let needle = serde_json::to_string(identifier).unwrap_or_default();
    let pattern = format!("\"phoneNumber\":{needle}");
    format!(
        "frontdesk contacts list --all --jsonl | grep -F '{}'",
        pattern.replace('\'', "'\\''")
    )
}

/// Builds the PATCH body from the flags (custom fields are added after the
/// field types are known).
pub fn patch_from_args(args: &UpdateArgs) -> ContactPatch {
    let tags = tag_list(&args.tags);
    ContactPatch {
        tags: if tags.is_empty() { None } else { Some(tags) },
        custom_fields: None,
        name: args.name.clone(),
        assigned_user: args.assign.clone(),
        unassign_user: if args.unassign { Some(true) } else { None },
        team_uuid: args.team.clone(),
        bot_status: args.bot.map(Into::into),
        note: if args.clear_note {
            Some(String::new())
        } else {
            args.note.clone()
        },
    }
}

pub(super) async fn update(ctx: &mut Ctx<'_>, args: UpdateArgs) -> Result<(), CliError> {
    let uuid = non_empty("the contact uuid", &args.uuid)?.to_string();
    if let Some(note) = &args.note {
        check_note(note)?;
    }
    let mut patch = patch_from_args(&args);
    if patch.is_empty() && args.fields.is_empty() {
        return Err(CliError::usage(
            "contacts update: nothing to change: give at least one of --name, --tag, --field, --assign, \
             --unassign, --team, --bot, --note, --clear-note",
        ));
    }
    let what = format!("contacts update {uuid}");
    let client = ctx.client()?;
    if !args.fields.is_empty() {
        let current = client
            .get_contact(&crate::api::ContactId::new(uuid.clone()), true)
            .await
            .map_err(api_err(format!("{what}: reading the custom field types")))?;
        let meta = current.custom_fields_metadata.unwrap_or_default();
        patch.custom_fields = Some(custom_fields_body(&args.fields, &meta).map_err(prefix(&what))?);
    }
    let c = client
        .update_contact(&crate::api::ContactId::new(uuid.clone()), &patch)
        .await
        .map_err(api_err(what))?;
    print_object(ctx, &c)
}

fn prefix(what: &str) -> impl FnOnce(CliError) -> CliError + '_ {
    move |e| match e {
        CliError::Usage(m) => CliError::Usage(format!("{what}: {m}")),
        other => other,
    }
}

#[cfg(test)]
mod tests;
