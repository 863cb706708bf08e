//! `frontdesk templates list|get|rename`.

use clap::Subcommand;

use super::shared::{NumberedArgs, non_empty, numbered_list, print_object};
use crate::api::{Template, TemplateId};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, api_err};
use crate::cli::output::{Recordable, Tabular, local_time, local_time_long};

#[derive(Debug, Subcommand)]
pub enum TemplatesCmd {
    /// List message templates
    List {
        #[command(flatten)]
        position: NumberedArgs,
    },
    /// Show one template
    Get { uuid: String },
    /// Give a template a new title
    Rename { uuid: String, title: String },
}

pub async fn run(ctx: &mut Ctx<'_>, cmd: TemplatesCmd) -> Result<(), CliError> {
    match cmd {
        TemplatesCmd::List { position } => {
            let client = ctx.client()?;
            numbered_list(
                ctx,
                "templates list",
                position.all,
                client.list_templates(position.page),
                || client.walk_templates(),
            )
            .await
        }
        TemplatesCmd::Get { uuid } => {
            let uuid = non_empty("the template uuid", &uuid)?.to_string();
            let client = ctx.client()?;
            let t = client
                .get_template(&TemplateId::new(uuid.clone()))
                .await
                .map_err(api_err(format!("templates get {uuid}")))?;
            print_object(ctx, &t)
        }
        TemplatesCmd::Rename { uuid, title } => {
            let uuid = non_empty("the template uuid", &uuid)?.to_string();
            let title = non_empty("the title", &title)?.to_string();
            let client = ctx.client()?;
            let t = client
                .rename_template(&TemplateId::new(uuid.clone()), &title)
                .await
                .map_err(api_err(format!("templates rename {uuid}")))?;
            print_object(ctx, &t)
        }
    }
}

impl Tabular for Template {
    fn headers() -> &'static [&'static str] {
        &["TITLE", "TYPE", "CATEGORY", "STATUS", "CREATED", "UUID"]
    }

    fn row(&self) -> Vec<String> {
        vec![
            self.title.clone(),
            self.template_type.clone(),
            self.category.clone(),
            self.status.to_string(),
            local_time(self.created_at),
            self.uuid.clone(),
        ]
    }
}

impl Recordable for Template {
    fn fields(&self) -> Vec<(String, String)> {
        vec![
            ("uuid".into(), self.uuid.clone()),
            ("title".into(), self.title.clone()),
            ("type".into(), self.template_type.clone()),
            ("category".into(), self.category.clone()),
            ("status".into(), self.status.to_string()),
            ("created".into(), local_time_long(self.created_at)),
            ("text".into(), self.text.clone()),
        ]
    }
}
