//! `frontdesk bot get|start|stop CONTACT_UUID`.

use clap::Subcommand;

use super::shared::{non_empty, print_object};
use crate::api::{Bot, BotAction};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, api_err};
use crate::cli::output::{Recordable, local_time_long, yes_no};

#[derive(Debug, Subcommand)]
pub enum BotCmd {
    /// Show a contact's bot
    Get { contact_uuid: String },
    /// Start (restart) the bot for a contact
    Start { contact_uuid: String },
    /// Stop the bot for a contact
    Stop { contact_uuid: String },
}

pub async fn run(ctx: &mut Ctx<'_>, cmd: BotCmd) -> Result<(), CliError> {
    let (verb, uuid, action) = match &cmd {
        BotCmd::Get { contact_uuid } => ("get", contact_uuid, None),
        BotCmd::Start { contact_uuid } => ("start", contact_uuid, Some(BotAction::Start)),
        BotCmd::Stop { contact_uuid } => ("stop", contact_uuid, Some(BotAction::End)),
    };
    let uuid = non_empty("the contact uuid", uuid)?.to_string();
    let what = format!("bot {verb} {uuid}");
    let client = ctx.client()?;
    let bot = match action {
        None => client.get_bot(&crate::api::ContactId::new(uuid.clone())).await,
        Some(a) => client.set_bot(&crate::api::ContactId::new(uuid.clone()), a).await,
    }
    .map_err(api_err(what))?;
    print_object(ctx, &bot)
}

impl Recordable for Bot {
    fn fields(&self) -> Vec<(String, String)> {
        vec![
            ("uuid".into(), self.uuid.clone()),
            ("name".into(), self.name.clone()),
            ("status".into(), self.status.to_string()),
            ("running".into(), yes_no(self.is_running()).into()),
            (
                "conversation started".into(),
                local_time_long(self.conversation_started_at),
            ),
            (
                "version".into(),
                self.version.map(|v| v.to_string()).unwrap_or_default(),
            ),
            (
                "latest version".into(),
                self.latest_bot_version
                    .map(|b| yes_no(b).to_string())
                    .unwrap_or_default(),
            ),
        ]
    }
}
