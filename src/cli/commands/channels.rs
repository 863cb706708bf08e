//! `frontdesk channels list|get|rename`.

use clap::Subcommand;

use super::shared::{NumberedArgs, non_empty, numbered_list, print_object};
use crate::api::Channel;
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, api_err};
use crate::cli::output::{Recordable, Tabular, yes_no};

#[derive(Debug, Subcommand)]
pub enum ChannelsCmd {
    /// List channels
    List {
        #[command(flatten)]
        position: NumberedArgs,
        /// Only channels of this type
        #[arg(long = "type")]
        channel_type: Option<String>,
        /// Only active channels (the ones messages can go out from)
        #[arg(long, conflicts_with = "channel_type")]
        active: bool,
    },
    /// Show one channel
    Get { uuid: String },
    /// Give a channel a new title
    Rename { uuid: String, title: String },
}

pub async fn run(ctx: &mut Ctx<'_>, cmd: ChannelsCmd) -> Result<(), CliError> {
    match cmd {
        ChannelsCmd::List { active: true, .. } => {
            let client = ctx.client()?;
            let items = client
                .active_channels()
                .await
                .map_err(api_err("channels list --active"))?;
            super::shared::print_page(
                ctx,
                crate::api::Page {
                    items,
                    meta: Default::default(),
                },
            )
        }
        ChannelsCmd::Get { uuid } => {
            let uuid = non_empty("the channel uuid", &uuid)?.to_string();
            let client = ctx.client()?;
            let c = client
                .get_channel(&uuid)
                .await
                .map_err(api_err(format!("channels get {uuid}")))?;
            print_object(ctx, &c)
        }
        ChannelsCmd::List {
            position, channel_type, ..
        } => {
            let client = ctx.client()?;
            numbered_list(
                ctx,
                "channels list",
                position.all,
                client.list_channels(position.page, channel_type.as_deref()),
                || client.walk_channels(channel_type.clone()),
            )
            .await
        }
        ChannelsCmd::Rename { uuid, title } => {
            let uuid = non_empty("the channel uuid", &uuid)?.to_string();
            let title = non_empty("the title", &title)?.to_string();
            let client = ctx.client()?;
            let c = client
                .rename_channel(&uuid, &title)
                .await
                .map_err(api_err(format!("channels rename {uuid}")))?;
            print_object(ctx, &c)
        }
    }
}

impl Tabular for Channel {
    fn headers() -> &'static [&'static str] {
        &["TITLE", "TYPE", "MAIN", "UUID"]
    }

    fn row(&self) -> Vec<String> {
        vec![
            self.title.clone(),
            self.channel_type.to_string(),
            yes_no(self.main).into(),
            self.uuid.clone(),
        ]
    }
}

impl Recordable for Channel {
    fn fields(&self) -> Vec<(String, String)> {
        vec![
            ("uuid".into(), self.uuid.clone()),
            ("title".into(), self.title.clone()),
            ("type".into(), self.channel_type.to_string()),
            ("main".into(), yes_no(self.main).into()),
        ]
    }
}
