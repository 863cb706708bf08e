//! `frontdesk contacts …`: list, get, close, open, and how a contact is
//! shown; create and update are in `write`; the bulk forms of close, open,
//! assign, unassign, tag and untag in `super::bulk`.

use clap::{Args, Subcommand};

use super::bulk::{self, BulkArgs};
use super::shared::{CursorArgs, non_empty, print_object, print_page, walk_list};
use crate::api::{Contact, ContactFilter, ConversationState, MAX_CONTACT_PAGE, split_list};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, api_err};
use crate::cli::output::{Recordable, Tabular, local_time, local_time_long};
use crate::triage::bulk::Action;

mod more;
mod write;

pub use write::MAX_NOTE_CHARS;
pub use write::{BotArg, CreateArgs, UpdateArgs, check_note, custom_fields_body, parse_field_arg, patch_from_args};

#[derive(Debug, Subcommand)]
pub enum ContactsCmd {
    /// List contacts, most recent conversation first
    List(ListArgs),
    /// Show one contact: by uuid, or looked up by --phone or --bsuid
    Get {
        #[arg(required_unless_present_any = ["phone", "bsuid"], conflicts_with_all = ["phone", "bsuid"])]
        uuid: Option<String>,
        /// Show each custom field's type and options
        #[arg(long)]
        field_types: bool,
        #[command(flatten)]
        lookup: more::LookupArgs,
    },
    /// Write an internal note on a contact's conversation (`@` tags a colleague)
    Note(more::NoteArgs),
    /// Move a contact's conversation to another funnel
    Funnel(more::FunnelArgs),
    /// Delete a contact (cannot be undone; asks first unless --yes)
    Delete(more::DeleteArgs),
    /// Create a contact
    Create(CreateArgs),
    /// Update a contact (only the given fields change)
    Update(UpdateArgs),
    /// Close a contact's conversation, or every one in a view (--view, --older-than)
    Close {
        /// The contact (leave out with --view or --older-than)
        uuid: Option<String>,
        #[command(flatten)]
        bulk: BulkArgs,
    },
    /// Reopen a contact's conversation, or every one in a view
    #[command(visible_alias = "reopen")]
    Open {
        uuid: Option<String>,
        #[command(flatten)]
        bulk: BulkArgs,
    },
    /// Assign a contact, or every one in a view, to a collaborator
    Assign {
        /// The collaborator's email, or "me" (your user_email)
        email: String,
        uuid: Option<String>,
        #[command(flatten)]
        bulk: BulkArgs,
    },
    /// Remove the assigned collaborator of a contact, or of every one in a view
    Unassign {
        uuid: Option<String>,
        #[command(flatten)]
        bulk: BulkArgs,
    },
    /// Add tags to a contact, or to every one in a view (its other tags stay)
    Tag {
        /// Existing tags, comma-separated
        tags: String,
        uuid: Option<String>,
        #[command(flatten)]
        bulk: BulkArgs,
    },
    /// Remove tags from a contact, or from every one in a view (its other tags stay)
    Untag {
        /// Tags, comma-separated (any case)
        tags: String,
        uuid: Option<String>,
        #[command(flatten)]
        bulk: BulkArgs,
    },
    /// Search the local index of the account: name, phone number, tags,
    /// custom field values, note and cached messages, best first (typos
    /// forgiven). Brings the index up to date first
    Search(super::search::SearchArgs),
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub position: CursorArgs,
    /// Only contacts of this integration type
    #[arg(long)]
    pub source: Option<String>,
    /// Only contacts with these tags (comma-separated, case-insensitive)
    #[arg(long)]
    pub tags: Option<String>,
    /// Only contacts of this team (uuid)
    #[arg(long)]
    pub team: Option<String>,
    /// Include each custom field's type and options
    #[arg(long)]
    pub field_types: bool,
}

pub async fn run(ctx: &mut Ctx<'_>, cmd: ContactsCmd) -> Result<(), CliError> {
    match cmd {
        ContactsCmd::List(args) => list(ctx, args).await,
        ContactsCmd::Get { uuid: None, lookup, .. } => more::lookup(ctx, lookup).await,
        ContactsCmd::Note(args) => more::note(ctx, args).await,
        ContactsCmd::Funnel(args) => more::funnel(ctx, args).await,
        ContactsCmd::Delete(args) => more::delete(ctx, args).await,
        ContactsCmd::Get {
            uuid: Some(uuid),
            field_types,
            ..
        } => {
            let uuid = non_empty("the contact uuid", &uuid)?.to_string();
            let client = ctx.client()?;
            let c = client
                .get_contact(&crate::api::ContactId::new(uuid.clone()), field_types)
                .await
                .map_err(api_err(format!("contacts get {uuid}")))?;
            print_object(ctx, &c)
        }
        ContactsCmd::Search(args) => super::search::run(ctx, args).await,
        ContactsCmd::Create(args) => write::create(ctx, args).await,
        ContactsCmd::Update(args) => write::update(ctx, args).await,
        ContactsCmd::Close { uuid, bulk } => bulk::run(ctx, uuid, Action::Close, bulk).await,
        ContactsCmd::Open { uuid, bulk } => bulk::run(ctx, uuid, Action::Reopen, bulk).await,
        ContactsCmd::Assign { email, uuid, bulk } => {
            let email = bulk::assignee_arg(ctx, &email)?;
            bulk::run(ctx, uuid, Action::Assign(email), bulk).await
        }
        ContactsCmd::Unassign { uuid, bulk } => bulk::run(ctx, uuid, Action::Unassign, bulk).await,
        ContactsCmd::Tag { tags, uuid, bulk } => {
            let tags = bulk::tags_arg("tag", &tags)?;
            bulk::run(ctx, uuid, Action::Tag(tags), bulk).await
        }
        ContactsCmd::Untag { tags, uuid, bulk } => {
            let tags = bulk::tags_arg("untag", &tags)?;
            bulk::run(ctx, uuid, Action::Untag(tags), bulk).await
        }
    }
}

/// The filter the list flags ask for.
pub fn list_filter(args: &ListArgs) -> ContactFilter {
    ContactFilter {
        source: args.source.clone().filter(|s| !s.is_empty()),
        tags: args.tags.as_deref().map(split_list).unwrap_or_default(),
        team_uuid: args.team.clone().filter(|s| !s.is_empty()),
        include_field_types: args.field_types,
    }
}

async fn list(ctx: &mut Ctx<'_>, args: ListArgs) -> Result<(), CliError> {
    if let Some(p) = args.position.page
        && p > MAX_CONTACT_PAGE
    {
        return Err(CliError::usage(format!(
            "--page {p}: the service serves contact pages up to {MAX_CONTACT_PAGE}; use --after or --all beyond"
        )));
    }
    let filter = list_filter(&args);
    let client = ctx.client()?;
    if args.position.all {
        // Complete under live traffic: a contact that moves to the top
        // during the walk is still listed, once.
        let pages = client.walk_contacts_complete(filter);
        walk_list(ctx, "contacts list", pages).await
    } else {
        let page = client
            .list_contacts(&filter, &args.position.request())
            .await
            .map_err(api_err("contacts list"))?;
        print_page(ctx, page)
    }
}

impl Tabular for Contact {
    fn headers() -> &'static [&'static str] {
        &[
            "NAME",
            "PHONE",
            "SOURCE",
            "STATUS",
            "ASSIGNEE",
            "TAGS",
            "LAST ACTIVITY",
            "UUID",
        ]
    }

    fn row(&self) -> Vec<String> {
        vec![
            self.name.clone(),
            self.phone_number.clone(),
            self.source.clone(),
            match self.state() {
                ConversationState::Open => "open",
                ConversationState::Closed => "closed",
                // The list answer does not say: never shown as open.
                ConversationState::Unknown => "?",
            }
            .to_string(),
            self.assigned_user.clone().unwrap_or_default(),
            self.tags.join(", "),
            local_time(self.last_activity()),
            self.uuid.clone(),
        ]
    }
}

impl Recordable for Contact {
    fn fields(&self) -> Vec<(String, String)> {
        let mut f: Vec<(String, String)> = vec![
            ("uuid".into(), self.uuid.clone()),
            ("name".into(), self.name.clone()),
            ("phone".into(), self.phone_number.clone()),
            ("source".into(), self.source.clone()),
            (
                "status".into(),
                match (self.state(), self.closed_at) {
                    (ConversationState::Unknown, _) => "state unknown".to_string(),
                    (_, None) => "open".to_string(),
                    (_, Some(t)) => format!("closed {}", local_time_long(Some(t))),
                },
            ),
            ("assignee".into(), self.assigned_user.clone().unwrap_or_default()),
        ];
        if let Some(team) = &self.team
            && (team.name.is_some() || team.uuid.is_some())
        {
            let name = team.name.clone().unwrap_or_default();
            let uuid = team.uuid.clone().unwrap_or_default();
            f.push(("team".into(), format!("{name} {uuid}").trim().to_string()));
        }
        f.push(("tags".into(), self.tags.join(", ")));
        f.push(("created".into(), local_time_long(self.created_at)));
        f.push(("last activity".into(), local_time_long(self.last_activity())));
        if let Some(funnel) = &self.funnel_id {
            f.push(("funnel".into(), funnel.clone()));
        }
        if let Some(note) = &self.note {
            f.push(("note".into(), note.clone()));
        }
        match &self.custom_fields_metadata {
            Some(meta) if !meta.is_empty() => {
                let lines: Vec<String> = meta
                    .iter()
                    .map(|(name, m)| {
                        let value = self.custom_fields.get(name).unwrap_or(&m.value).display();
                        let options = if m.options.is_empty() {
                            String::new()
                        } else {
                            format!(" [{}]", m.options.join("|"))
                        };
                        format!("{name} ({}{options}): {value}", m.field_type)
                    })
                    .collect();
                f.push(("custom fields".into(), lines.join("\n")));
            }
            _ if !self.custom_fields.is_empty() => {
                let lines: Vec<String> = self
                    .custom_fields
                    .iter()
                    .map(|(name, v)| format!("{name}: {}", v.display()))
                    .collect();
                f.push(("custom fields".into(), lines.join("\n")));
            }
            _ => {}
        }
        if let Some(h) = &self.href {
            f.push(("href".into(), h.clone()));
        }
        if let Some(h) = &self.conversation_href {
            f.push(("conversation".into(), h.clone()));
        }
        f
    }
}
