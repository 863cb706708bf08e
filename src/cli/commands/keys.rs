//! `frontdesk keys [--markdown]`: the key map in force (defaults with the
//! config file's `[keys]`), and the README's table (`--markdown`).

use clap::Args;

use crate::cli::{CliError, Ctx};
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
    let entries = ctx.settings()?.looks.keys.clone();
    let (map, problems) = Keymap::resolve(&entries);
    for p in &problems {
        let _ = writeln!(ctx.err, "frontdesk: warning: {}", crate::cli::sanitize(p));
    }
    let width = map.rows().iter().map(|r| r.label.chars().count()).max().unwrap_or(0);
    let mut doc = String::new();
    for r in map.rows() {
        let label = if r.label.is_empty() { "(none)" } else { &r.label };
        doc.push_str(&format!("{label:<width$}  {:<14} {}\n", r.name, r.help));
    }
    ctx.emit(&crate::cli::sanitize(&doc))
}
