//! `frontdesk status set|clear`: your own availability and custom status.

use clap::{Args, Subcommand};

use super::shared::print_object;
use crate::api::{CustomStatusChange, UserStatus, UserStatusUpdate};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, api_err};
use crate::cli::output::{Recordable, local_time_long};

#[derive(Debug, Subcommand)]
pub enum StatusCmd {
    /// Set your availability and/or custom status (needs your user uuid: --user or FRONTDESK_USER_UUID)
    Set(SetArgs),
    /// Take off your custom status (needs your user uuid, as `set`)
    Clear,
}

#[derive(Debug, Args)]
pub struct SetArgs {
    /// Mark yourself available
    #[arg(long, conflicts_with = "away")]
    pub available: bool,
    /// Mark yourself away
    #[arg(long)]
    pub away: bool,
    /// Wear this custom status (id)
    #[arg(long, value_name = "ID", conflicts_with = "clear_custom_status")]
    pub custom_status: Option<String>,
    /// Remove your custom status
    #[arg(long)]
    pub clear_custom_status: bool,
}

/// The request body the flags ask for; `None` when they ask for nothing.
pub fn update_from_args(args: &SetArgs) -> Option<UserStatusUpdate> {
    let available = match (args.available, args.away) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    };
    let custom_status = match (&args.custom_status, args.clear_custom_status) {
        (Some(id), _) => CustomStatusChange::Set(id.trim().to_string()),
        (None, true) => CustomStatusChange::Clear,
        (None, false) => CustomStatusChange::Keep,
    };
    if available.is_none() && custom_status == CustomStatusChange::Keep {
        None
    } else {
        Some(UserStatusUpdate {
            available,
            custom_status,
        })
    }
}

pub async fn run(ctx: &mut Ctx<'_>, cmd: StatusCmd) -> Result<(), CliError> {
    let args = match cmd {
        StatusCmd::Set(args) => args,
        StatusCmd::Clear => return clear(ctx).await,
    };
    let update = update_from_args(&args).ok_or_else(|| {
        CliError::usage(
            "status set: nothing to change: give --available or --away, and/or --custom-status ID or \
             --clear-custom-status",
        )
    })?;
    let user = ctx
        .settings()?
        .user_uuid
        .clone()
        .filter(|u| !u.trim().is_empty())
        .ok_or_else(|| {
            CliError::usage(
                "status set: your user uuid is not configured: pass --user UUID, set FRONTDESK_USER_UUID, \
                 or put user_uuid in your profile in the config file",
            )
        })?;
    let client = ctx.client()?;
    let status = client
        .set_user_status(&user, &update)
        .await
        .map_err(api_err(format!("status set (user {user})")))?;
    print_object(ctx, &status)
}

/// `status clear`: DELETE /users/:uuid/status.
async fn clear(ctx: &mut Ctx<'_>) -> Result<(), CliError> {
    let user = my_uuid(ctx, "status clear")?;
    let client = ctx.client()?;
    client
        .clear_user_status(&user)
        .await
        .map_err(api_err(format!("status clear (user {user})")))?;
    print_object(ctx, &UserStatus::default())
}

/// The configured user uuid, or a usage error saying how to give it.
fn my_uuid(ctx: &mut Ctx<'_>, what: &str) -> Result<String, CliError> {
    ctx.settings()?
        .user_uuid
        .clone()
        .filter(|u| !u.trim().is_empty())
        .ok_or_else(|| {
            CliError::usage(format!(
                "{what}: your user uuid is not configured: pass --user UUID, set FRONTDESK_USER_UUID, \
                 or put user_uuid in your profile in the config file"
            ))
        })
}

impl Recordable for UserStatus {
    fn fields(&self) -> Vec<(String, String)> {
        let mut f = Vec::new();
        if let Some(a) = &self.appearance {
            f.push((
                "availability".into(),
                if a.available { "available" } else { "away" }.to_string(),
            ));
            f.push(("availability since".into(), local_time_long(a.last_updated_at)));
        }
        match &self.custom_status {
            Some(c) if c.id.is_some() || c.name.is_some() => {
                f.push(("custom status".into(), c.name.clone().unwrap_or_default()));
                f.push(("custom status id".into(), c.id.clone().unwrap_or_default()));
                f.push(("custom status since".into(), local_time_long(c.last_updated_at)));
            }
            _ => f.push(("custom status".into(), "none".into())),
        }
        f
    }
}

#[cfg(test)]
mod tests;
