//! `frontdesk completions bash|zsh|fish`.

use clap::CommandFactory;

use crate::cli::args::Cli;
pub use crate::cli::args::{CompletionsArgs, ShellArg};
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;

/// The completion script for a shell.
pub fn script(shell: ShellArg) -> Vec<u8> {
    let shell = match shell {
        ShellArg::Bash => clap_complete::Shell::Bash,
        ShellArg::Zsh => clap_complete::Shell::Zsh,
        ShellArg::Fish => clap_complete::Shell::Fish,
    };
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "frontdesk", &mut buf);
    buf
}

pub fn run(ctx: &mut Ctx<'_>, args: CompletionsArgs) -> Result<(), CliError> {
    let buf = script(args.shell);
    ctx.out.write_all(&buf)?;
    ctx.out.flush()?;
    Ok(())
}
