//! `frontdesk teams list|get|rename|members`.

use clap::{Subcommand, ValueEnum};

use super::shared::{NumberedArgs, non_empty, numbered_list, print_object};
use crate::api::{Team, TeamMember};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, api_err};
use crate::cli::output::{Recordable, Tabular, local_time, local_time_long, yes_no};

#[derive(Debug, Subcommand)]
pub enum TeamsCmd {
    /// List teams
    List {
        #[command(flatten)]
        position: NumberedArgs,
    },
    /// Show one team
    Get { uuid: String },
    /// Give a team a new name
    Rename { uuid: String, name: String },
    /// List a team's members
    Members {
        uuid: String,
        #[command(flatten)]
        position: NumberedArgs,
        /// Only members who are available or away
        #[arg(long)]
        status: Option<Availability>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Availability {
    Available,
    Away,
}

pub async fn run(ctx: &mut Ctx<'_>, cmd: TeamsCmd) -> Result<(), CliError> {
    match cmd {
        TeamsCmd::List { position } => {
            let client = ctx.client()?;
            numbered_list(
                ctx,
                "teams list",
                position.all,
                client.list_teams(position.page),
                || client.walk_teams(),
            )
            .await
        }
        TeamsCmd::Rename { uuid, name } => {
            let uuid = non_empty("the team uuid", &uuid)?.to_string();
            let name = non_empty("the name", &name)?.to_string();
            let client = ctx.client()?;
            let t = client
                .rename_team(&uuid, &name)
                .await
                .map_err(api_err(format!("teams rename {uuid}")))?;
            print_object(ctx, &t)
        }
        TeamsCmd::Get { uuid } => {
            let uuid = non_empty("the team uuid", &uuid)?.to_string();
            let client = ctx.client()?;
            let t = client
                .get_team(&uuid)
                .await
                .map_err(api_err(format!("teams get {uuid}")))?;
            print_object(ctx, &t)
        }
        TeamsCmd::Members { uuid, position, status } => {
            let uuid = non_empty("the team uuid", &uuid)?.to_string();
            let status = status.map(|s| match s {
                Availability::Available => "available",
                Availability::Away => "away",
            });
            let client = ctx.client()?;
            let what = format!("teams members {uuid}");
            numbered_list(
                ctx,
                &what,
                position.all,
                client.team_members(&uuid, position.page, status),
                || client.walk_team_members(&uuid, status.map(str::to_string)),
            )
            .await
        }
    }
}

impl Tabular for Team {
    fn headers() -> &'static [&'static str] {
        &["NAME", "MEMBERS", "DEFAULT", "CREATED", "UUID"]
    }

    fn row(&self) -> Vec<String> {
        vec![
            self.name.clone(),
            self.members.map(|m| m.to_string()).unwrap_or_default(),
            yes_no(self.default).into(),
            local_time(self.created_at),
            self.uuid.clone(),
        ]
    }
}

impl Recordable for Team {
    fn fields(&self) -> Vec<(String, String)> {
        vec![
            ("uuid".into(), self.uuid.clone()),
            ("name".into(), self.name.clone()),
            (
                "members".into(),
                self.members.map(|m| m.to_string()).unwrap_or_default(),
            ),
            ("default".into(), yes_no(self.default).into()),
            ("created".into(), local_time_long(self.created_at)),
        ]
    }
}

/// A member's custom status as a short text (its name, else the raw JSON).
fn custom_status_text(v: &Option<crate::api::MemberStatus>) -> String {
    v.as_ref().map(crate::api::MemberStatus::label).unwrap_or_default()
}

impl Tabular for TeamMember {
    fn headers() -> &'static [&'static str] {
        &["NAME", "EMAIL", "AVAILABLE", "CUSTOM STATUS", "UPDATED"]
    }

    fn row(&self) -> Vec<String> {
        vec![
            self.name.clone(),
            self.email.clone(),
            self.available.map(|a| yes_no(a).to_string()).unwrap_or_default(),
            custom_status_text(&self.user_custom_status),
            local_time(self.last_updated_at),
        ]
    }
}
