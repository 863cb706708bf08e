//! `frontdesk plan`.

use super::shared::print_object;
use crate::api::Plan;
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, api_err};
use crate::cli::output::Recordable;

pub async fn run(ctx: &mut Ctx<'_>) -> Result<(), CliError> {
    let client = ctx.client()?;
    let plan = client.plan().await.map_err(api_err("plan"))?;
    print_object(ctx, &plan)
}

impl Recordable for Plan {
    fn fields(&self) -> Vec<(String, String)> {
        let teams: Vec<String> = self
            .teams
            .iter()
            .map(|t| match t.members {
                Some(n) => format!("{} ({n} members) {}", t.name, t.uuid),
                None => format!("{} {}", t.name, t.uuid),
            })
            .collect();
        vec![
            ("plan".into(), self.plan.clone()),
            ("included channels".into(), self.included_channels.to_string()),
            ("licenses".into(), self.licenses.to_string()),
            ("active users".into(), self.active_users.to_string()),
            ("teams".into(), teams.join("\n")),
        ]
    }
}
