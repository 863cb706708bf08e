//! `frontdesk funnels list`.

use clap::Subcommand;

use crate::api::Funnel;
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, api_err};
use crate::cli::output::{Tabular, list_doc, local_time};

#[derive(Debug, Subcommand)]
pub enum FunnelsCmd {
    /// List funnels
    List,
}

pub async fn run(ctx: &mut Ctx<'_>, cmd: FunnelsCmd) -> Result<(), CliError> {
    match cmd {
        FunnelsCmd::List => {
            let client = ctx.client()?;
            let mut funnels = client.list_funnels().await.map_err(api_err("funnels list"))?;
            funnels.sort_by_key(|f| f.position);
            let doc = list_doc(ctx.format, ctx.color, &funnels)?;
            ctx.emit(&doc)
        }
    }
}

impl Tabular for Funnel {
    fn headers() -> &'static [&'static str] {
        &["POSITION", "EMOJI", "NAME", "CREATED", "UUID"]
    }

    fn row(&self) -> Vec<String> {
        vec![
            self.position.to_string(),
            self.emoji.clone(),
            self.name.clone(),
            local_time(self.created_at),
            self.uuid.clone(),
        ]
    }
}
