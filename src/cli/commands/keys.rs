//! `frontdesk keys [--markdown]`: the key map in force (defaults with the
//! config file's `[keys]`), and the README's table (`--markdown`).

use clap::Args;

use crate::cli::error::CliError;

use crate::cli::ctx::Ctx;
use crate::tui::keymap::Keymap;

#[derive(Debug, Args)]
pub struct KeysArgs {
    /// Print the built-in keys as the README's Markdown table
    #[arg(long)]
    pub markdown: bool,
}

pub fn run(ctx: &mut Ctx<'_>, args: KeysArgs) -> Result<(), CliError> {
    if args.markdown {
        return ctx.emit(&Keymap::defaults().markdown_table());
    }
    let looks = ctx.settings()?.looks.clone();
    let (map, problems) = Keymap::resolve_with(&looks.keys, &looks.macros);
    for p in &problems {
        let _ = writeln!(ctx.err, "frontdesk: warning: {}", crate::cli::output::sanitize(p));
    }
    // The labels are the config file's keys: each made inert on its own,
    // so the document's own line breaks stay line breaks.
    let labels: Vec<String> = map
        .rows()
        .iter()
        .map(|r| match r.label.as_str() {
            "" => "(none)".to_string(),
            label => crate::cli::output::sanitize(label),
        })
        .collect();
    let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let mut doc = String::new();
    for (r, label) in map.rows().iter().zip(&labels) {
        doc.push_str(&format!("{label:<width$}  {:<14} {}\n", r.name, r.help));
    }
    ctx.emit(&doc)
}
