//! `frontdesk contacts search TEXT` (and its hidden old name `frontdesk
//! search TEXT`): contacts matching TEXT in the local index (name, phone
//! number, tags, custom field values, note, cached messages), best first.
//! The index is brought up to date first.

use clap::Args;

use super::cache::open_index;
use super::sync::{index_err, refresh};
use crate::api::Contact;
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::cli::output::list_doc;

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Words to look for; each must start a word of the contact (as typed),
    /// or be within a typo or two of one
    #[arg(required = true, num_args = 1..)]
    pub text: Vec<String>,
    /// Show at most this many contacts
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub limit: u32,
}

pub async fn run(ctx: &mut Ctx<'_>, args: SearchArgs) -> Result<(), CliError> {
    let text = args.text.join(" ");
    if crate::index::fts_query(&text).is_none() {
        return Err(CliError::usage("the search text has no letter or digit to look for"));
    }
    let mut index = open_index(ctx)?;
    refresh(ctx, &mut index).await?;
    let hits = index.search(&text, args.limit as usize).map_err(index_err)?;
    let mut contacts: Vec<Contact> = Vec::with_capacity(hits.len());
    for (uuid, _) in hits {
        if let Some(c) = index.get(&uuid).map_err(index_err)? {
            contacts.push(c);
        }
    }
    let doc = list_doc(ctx.format, ctx.color, &contacts)?;
    ctx.emit(&doc)
}
