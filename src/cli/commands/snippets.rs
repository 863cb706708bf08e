//! `frontdesk snippets list|show NAME [--contact UUID]`: the canned replies
//! of `snippets.toml` beside the config file (and the team's, from the hub
//! when one is configured), and one filled for a contact.

use clap::Subcommand;
use serde::Serialize;

use crate::api::ContactId;
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::cli::output::{Tabular, list_doc};
use crate::snippets::{self, Snippets, Vars};

#[derive(Debug, Subcommand)]
pub enum SnippetsCmd {
    /// Every snippet: its shortcode and label
    List,
    /// One snippet's text; with --contact, its variables filled for that contact
    Show {
        /// The shortcode
        name: String,
        /// Fill the variables for this contact (uuid)
        #[arg(long)]
        contact: Option<String>,
        /// The agent's name for {{agent.name}}
        #[arg(long)]
        agent: Option<String>,
    },
}

#[derive(Debug, Serialize)]
struct SnippetRow {
    name: String,
    label: String,
    /// It came from the team's hub (a local one of the same name wins).
    team: bool,
}

impl Tabular for SnippetRow {
    fn headers() -> &'static [&'static str] {
        &["NAME", "LABEL"]
    }

    fn row(&self) -> Vec<String> {
        let name = if self.team {
            format!("{} (team)", self.name)
        } else {
            self.name.clone()
        };
        vec![name, self.label.clone()]
    }
}

/// The local snippets, with the team's from the hub when one is
/// configured (a local one wins on the same name).
async fn read(ctx: &mut Ctx<'_>) -> Result<(Snippets, std::path::PathBuf), CliError> {
    let settings = ctx.settings()?;
    let config = settings.config_path.clone();
    let table = settings.looks.snippets.clone();
    let hub = settings.hub().map_err(|e| CliError::Api {
        what: "reaching the hub".into(),
        source: e,
    })?;
    let path = config
        .as_deref()
        .and_then(snippets::path_beside)
        .ok_or_else(|| CliError::Usage("no config directory: set --config to find snippets.toml beside it".into()))?;
    let mut s = snippets::load_all(config.as_deref(), &table).map_err(CliError::Usage)?;
    if let Some(hub) = hub {
        let team = hub.snippets().await.map_err(|e| CliError::Api {
            what: "reading the team's snippets from the hub".into(),
            source: e,
        })?;
        snippets::merge_team(&mut s, team);
    }
    for w in &s.warnings {
        let _ = writeln!(ctx.err, "frontdesk: warning: {w}");
    }
    Ok((s, path))
}

pub async fn run(ctx: &mut Ctx<'_>, cmd: SnippetsCmd) -> Result<(), CliError> {
    let (all, path) = read(ctx).await?;
    match cmd {
        SnippetsCmd::List => {
            if all.items.is_empty() && ctx.format == crate::cli::output::Format::Table {
                let _ = writeln!(
                    ctx.err,
                    "frontdesk: no snippets: write shortcode = \"text\" lines in {} (or under [snippets] in the config file)",
                    crate::cli::output::sanitize(&path.display().to_string())
                );
            }
            let rows: Vec<SnippetRow> = all
                .items
                .iter()
                .map(|s| SnippetRow {
                    name: s.name.clone(),
                    label: s.label.clone(),
                    team: all.team.contains(&s.name),
                })
                .collect();
            let doc = list_doc(ctx.format, ctx.color, &rows)?;
            ctx.emit(&doc)
        }
        SnippetsCmd::Show { name, contact, agent } => {
            let Some(s) = all.get(&name) else {
                let known: Vec<&str> = all.items.iter().map(|s| s.name.as_str()).collect();
                return Err(CliError::Usage(format!(
                    "no snippet \"{}\"{}",
                    crate::cli::output::sanitize(&name),
                    if known.is_empty() {
                        String::new()
                    } else {
                        format!(" (there are: {})", known.join(", "))
                    }
                )));
            };
            let text = match contact {
                None => s.text.clone(),
                Some(uuid) => {
                    let client = ctx.client()?;
                    let c = client
                        .get_contact(&ContactId::from(uuid.as_str()), false)
                        .await
                        .map_err(|e| CliError::Api {
                            what: "reading the contact".into(),
                            source: e,
                        })?;
                    let filled = snippets::fill(&s.text, &Vars::of(&c, agent.as_deref()));
                    for m in &filled.missing {
                        let _ = writeln!(ctx.err, "frontdesk: warning: {{{{{m}}}}} has no value for this contact");
                    }
                    filled.text
                }
            };
            // The text is frontdesk's own file's, already inert but for its line breaks.
            let mut doc = text;
            if !doc.ends_with('\n') {
                doc.push('\n');
            }
            ctx.emit(&doc)
        }
    }
}
