//! Parsing the command line: `serve` apart from the client's global flags.

use clap::Parser;

use super::args::{Cli, Command, OutputArgs};
use super::serve;
use crate::config::GlobalArgs;

/// `frontdesk serve` on its own: only the server's flags, none of the
/// client's global ones (`--json`, `--profile`, `--base-url`… mean nothing
/// to a server).
#[derive(Debug, Parser)]
#[command(name = "frontdesk serve", version, about = "Run the embedded reference server")]
pub struct ServeCli {
    #[command(flatten)]
    pub args: serve::ServeArgs,
}

/// The command line, with `serve` parsed apart from the client flags.
pub fn parse_from<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let first = args.get(1).and_then(|a| a.to_str());
    let second = args.get(2).and_then(|a| a.to_str());
    if first == Some("serve") || (first == Some("help") && second == Some("serve")) {
        let skip = if first == Some("help") { 3 } else { 2 };
        let mut rest = vec![std::ffi::OsString::from("frontdesk serve")];
        if skip == 3 {
            rest.push("--help".into());
        }
        rest.extend(args.into_iter().skip(skip));
        let serve = ServeCli::try_parse_from(rest)?;
        return Ok(Cli {
            global: GlobalArgs::default(),
            output: OutputArgs::default(),
            demo: false,
            command: Some(Command::Serve(serve.args)),
        });
    }
    let cli = Cli::try_parse_from(args)?;
    if matches!(cli.command, Some(Command::Serve(_))) {
        // Client flags given before `serve`.
        let mut cmd = <Cli as clap::CommandFactory>::command();
        return Err(cmd.error(
            clap::error::ErrorKind::ArgumentConflict,
            "`serve` takes only its own flags: put them after `serve` (see frontdesk serve --help)",
        ));
    }
    Ok(cli)
}

/// `parse_from` on the process's arguments; prints help or the error and
/// exits as clap does.
pub fn parse() -> Cli {
    parse_from(std::env::args_os()).unwrap_or_else(|e| e.exit())
}
