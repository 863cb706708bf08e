//! `frontdesk custom-statuses list|get|create|update|delete`.

use clap::Subcommand;
use serde::Serialize;

use super::shared::{NumberedArgs, non_empty, numbered_list, print_object};
use crate::api::{CustomStatus, CustomStatusBody};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, api_err};
use crate::cli::output::{Recordable, Tabular, local_time, local_time_long};

#[derive(Debug, Subcommand)]
pub enum CustomStatusesCmd {
    /// List custom statuses
    List {
        #[command(flatten)]
        position: NumberedArgs,
    },
    /// Show one custom status
    Get { id: String },
    /// Create a custom status
    Create {
        name: String,
        #[arg(long)]
        emoji: Option<String>,
    },
    /// Change a custom status's name or emoji
    Update {
        id: String,
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        emoji: Option<String>,
    },
    /// Delete a custom status
    Delete { id: String },
}

/// What `custom-statuses delete` prints.
#[derive(Debug, Serialize)]
pub struct DeletedStatus {
    pub id: String,
    pub deleted: bool,
}

impl Recordable for DeletedStatus {
    fn fields(&self) -> Vec<(String, String)> {
        vec![("id".into(), self.id.clone()), ("deleted".into(), "yes".into())]
    }
}

pub async fn run(ctx: &mut Ctx<'_>, cmd: CustomStatusesCmd) -> Result<(), CliError> {
    match cmd {
        CustomStatusesCmd::List { position } => {
            let client = ctx.client()?;
            numbered_list(
                ctx,
                "custom-statuses list",
                position.all,
                client.list_custom_statuses(position.page),
                || client.walk_custom_statuses(),
            )
            .await
        }
        CustomStatusesCmd::Get { id } => {
            let id = non_empty("the custom status id", &id)?.to_string();
            let client = ctx.client()?;
            let s = client
                .get_custom_status(&id)
                .await
                .map_err(api_err(format!("custom-statuses get {id}")))?;
            print_object(ctx, &s)
        }
        CustomStatusesCmd::Create { name, emoji } => {
            let name = non_empty("the name", &name)?.to_string();
            let client = ctx.client()?;
            let s = client
                .create_custom_status(&CustomStatusBody { name, emoji })
                .await
                .map_err(api_err("custom-statuses create"))?;
            print_object(ctx, &s)
        }
        CustomStatusesCmd::Update { id, name, emoji } => {
            let id = non_empty("the custom status id", &id)?.to_string();
            if name.is_none() && emoji.is_none() {
                return Err(CliError::usage(
                    "custom-statuses update: nothing to change: give --name and/or --emoji",
                ));
            }
            let what = format!("custom-statuses update {id}");
            let client = ctx.client()?;
            // The body needs a name: keep the current one when only the emoji changes.
            let name = match name {
                Some(n) => non_empty("--name", &n)?.to_string(),
                None => {
                    client
                        .get_custom_status(&id)
                        .await
                        .map_err(api_err(format!("{what}: reading the current name")))?
                        .name
                }
            };
            let s = client
                .update_custom_status(&id, &CustomStatusBody { name, emoji })
                .await
                .map_err(api_err(what))?;
            print_object(ctx, &s)
        }
        CustomStatusesCmd::Delete { id } => {
            let id = non_empty("the custom status id", &id)?.to_string();
            let client = ctx.client()?;
            client
                .delete_custom_status(&id)
                .await
                .map_err(api_err(format!("custom-statuses delete {id}")))?;
            print_object(ctx, &DeletedStatus { id, deleted: true })
        }
    }
}

impl Tabular for CustomStatus {
    fn headers() -> &'static [&'static str] {
        &["EMOJI", "NAME", "UPDATED", "ID"]
    }

    fn row(&self) -> Vec<String> {
        vec![
            self.emoji.clone(),
            self.name.clone(),
            local_time(self.updated_at.or(self.created_at)),
            self.id.clone(),
        ]
    }
}

impl Recordable for CustomStatus {
    fn fields(&self) -> Vec<(String, String)> {
        vec![
            ("id".into(), self.id.clone()),
            ("name".into(), self.name.clone()),
            ("emoji".into(), self.emoji.clone()),
            ("created".into(), local_time_long(self.created_at)),
            ("updated".into(), local_time_long(self.updated_at)),
        ]
    }
}
