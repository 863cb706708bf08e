//! `frontdesk man`: one man page (roff, via clap_mangen) with every command
//! and its options. Install: `frontdesk man > ~/.local/share/man/man1/frontdesk.1`.

use clap::CommandFactory;
use clap_mangen::Man;

use crate::cli::args::Cli;

use crate::cli::error::CliError;

use crate::cli::ctx::Ctx;

/// The whole page: the top-level page, then a section per command (its
/// synopsis, description and own options; the global ones are listed once,
/// at the top).
pub fn page() -> Result<Vec<u8>, std::io::Error> {
    let mut cmd = Cli::command();
    cmd.build();
    let mut out = Vec::new();
    Man::new(cmd.clone()).render(&mut out)?;
    let globals: Vec<clap::Id> = cmd
        .get_arguments()
        .filter(|a| a.is_global_set())
        .map(|a| a.get_id().clone())
        .collect();
    let mut stack: Vec<&clap::Command> = cmd.get_subcommands().collect();
    stack.reverse();
    while let Some(sub) = stack.pop() {
        if sub.get_name() == "help" {
            continue;
        }
        let at = stack.len();
        stack.extend(sub.get_subcommands());
        stack[at..].reverse();
        let mut own = sub.clone();
        for id in &globals {
            if own.get_arguments().any(|a| a.get_id() == id) {
                own = own.mut_arg(id.clone(), |a| a.hide(true));
            }
        }
        let name = sub.get_bin_name().unwrap_or_else(|| sub.get_name()).to_string();
        let man = Man::new(own);
        let mut body = Vec::new();
        man.render_synopsis_section(&mut body)?;
        man.render_description_section(&mut body)?;
        man.render_options_section(&mut body)?;
        if sub.has_subcommands() {
            man.render_subcommands_section(&mut body)?;
        }
        // Each command's sections become subsections of one section.
        let body = String::from_utf8_lossy(&body).replace("\n.SH ", "\n.SS ");
        let body = body.strip_prefix(".SH ").map(|b| format!(".SS {b}")).unwrap_or(body);
        out.extend_from_slice(format!(".SH \"{}\"\n", name.to_uppercase()).as_bytes());
        out.extend_from_slice(body.as_bytes());
    }
    Ok(out)
}

pub fn run(ctx: &mut Ctx<'_>) -> Result<(), CliError> {
    let page = page().map_err(|e| CliError::Other(format!("cannot render the man page: {e}")))?;
    ctx.out.write_all(&page)?;
    ctx.out.flush()?;
    Ok(())
}
