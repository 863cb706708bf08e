//! `contacts note`, `contacts funnel`, `contacts delete` and `contacts get
//! --phone|--bsuid`: the documented contact endpoints beyond the reference.

use clap::Args;
use serde::Serialize;

use super::super::messages::Deleted;
use super::super::shared::{non_empty, print_object};
use crate::api::{ApiError, ContactId};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, api_err};
use crate::cli::output::Recordable;
use crate::cli::output::sanitize;

/// The longest note the service accepts, in characters.
pub const MAX_NOTE_CHARS: usize = 4096;

/// `contacts get --phone NUMBER | --bsuid ID`.
#[derive(Debug, Clone, Default, Args)]
pub struct LookupArgs {
    /// Look the contact up by phone number (the service's, even before the local index holds it)
    #[arg(long, value_name = "NUMBER", conflicts_with = "bsuid")]
    pub phone: Option<String>,
    /// Look the contact up by its WhatsApp Business Suite User ID
    #[arg(long, value_name = "ID")]
    pub bsuid: Option<String>,
    /// With --phone: search on this channel (uuid) instead of the main one
    #[arg(long, value_name = "UUID", requires = "phone")]
    pub channel: Option<String>,
}

#[derive(Debug, Args)]
pub struct NoteArgs {
    /// The contact's uuid
    pub contact: String,
    /// The note (seen by colleagues only; `@name` tags one)
    pub text: String,
}

#[derive(Debug, Args)]
pub struct FunnelArgs {
    /// The contact's uuid
    pub contact: String,
    /// The funnel to move the conversation to (see `frontdesk funnels list`)
    pub funnel_uuid: String,
}

#[derive(Debug, Args)]
pub struct DeleteArgs {
    /// The contact's uuid
    pub contact: String,
    /// Delete without asking (it cannot be undone)
    #[arg(long)]
    pub yes: bool,
}

/// What `contacts note` prints.
#[derive(Debug, Serialize)]
struct Noted {
    contact: String,
    note: String,
}

impl Recordable for Noted {
    fn fields(&self) -> Vec<(String, String)> {
        vec![
            ("contact".into(), self.contact.clone()),
            ("note".into(), self.note.clone()),
            ("written".into(), "yes (internal: the customer does not see it)".into()),
        ]
    }
}

pub async fn lookup(ctx: &mut Ctx<'_>, args: LookupArgs) -> Result<(), CliError> {
    let client = ctx.client()?;
    let (what, found) = match (&args.phone, &args.bsuid) {
        (Some(phone), _) => {
            let phone = non_empty("--phone", phone)?.to_string();
            let what = format!("contacts get --phone {}", sanitize(&phone));
            (what, client.contact_by_phone(&phone, args.channel.as_deref()).await)
        }
        (None, Some(bsuid)) => {
            let bsuid = non_empty("--bsuid", bsuid)?.to_string();
            let what = format!("contacts get --bsuid {}", sanitize(&bsuid));
            (what, client.contact_by_bsuid(&bsuid).await)
        }
        (None, None) => return Err(CliError::usage("contacts get: give a contact uuid, --phone or --bsuid")),
    };
    match found {
        Ok(c) => print_object(ctx, &c),
        Err(ApiError::NotFound { .. }) => Err(CliError::Other(format!("{what}: no contact has it"))),
        Err(e) => Err(api_err(what)(e)),
    }
}

pub async fn note(ctx: &mut Ctx<'_>, args: NoteArgs) -> Result<(), CliError> {
    let uuid = non_empty("the contact uuid", &args.contact)?.to_string();
    let text = non_empty("the note", &args.text)?.to_string();
    if text.chars().count() > MAX_NOTE_CHARS {
        return Err(CliError::usage(format!(
            "contacts note: the note has {} characters; the service takes at most {MAX_NOTE_CHARS}",
            text.chars().count()
        )));
    }
    let client = ctx.client()?;
    let what = format!("contacts note {uuid}");
    client
        .add_note(&ContactId::new(uuid.clone()), &text)
        .await
        .map_err(|e| {
            if e.may_have_applied() {
                CliError::Other(format!(
                    "{what}: {e}. See whether it was written before writing it again: frontdesk messages list {uuid}"
                ))
            } else {
                api_err(what)(e)
            }
        })?;
    print_object(
        ctx,
        &Noted {
            contact: uuid,
            note: sanitize(&text),
        },
    )
}

pub async fn funnel(ctx: &mut Ctx<'_>, args: FunnelArgs) -> Result<(), CliError> {
    let uuid = non_empty("the contact uuid", &args.contact)?.to_string();
    let funnel = non_empty("the funnel uuid", &args.funnel_uuid)?.to_string();
    let client = ctx.client()?;
    let c = client
        .set_funnel(&ContactId::new(uuid.clone()), &funnel)
        .await
        .map_err(api_err(format!("contacts funnel {uuid}")))?;
    print_object(ctx, &c)
}

pub async fn delete(ctx: &mut Ctx<'_>, args: DeleteArgs) -> Result<(), CliError> {
    let uuid = non_empty("the contact uuid", &args.contact)?.to_string();
    if !args.yes {
        let question = format!("Delete contact {}? This cannot be undone.", sanitize(&uuid));
        crate::cli::commands::bulk::confirm(ctx, &question, "Pass --yes to delete it", "nothing was deleted")?;
    }
    let client = ctx.client()?;
    client
        .delete_contact(&ContactId::new(uuid.clone()))
        .await
        .map_err(|e| match e {
            ApiError::NotFound { .. } => CliError::Other(format!(
                "contacts delete {uuid}: no such contact (already deleted, or never there)"
            )),
            e => api_err(format!("contacts delete {uuid}"))(e),
        })?;
    print_object(
        ctx,
        &Deleted {
            uuid,
            deleted: true,
            already: false,
        },
    )
}
