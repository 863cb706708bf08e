use std::io::Write;
use std::process::ExitCode;

use frontdesk::cli::Command;

/// One line on stderr. A closed stderr (the terminal hung up) is no reason
/// to panic on the way out: the line is dropped (the log has it).
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn main() -> ExitCode {
    let cli = frontdesk::cli::parse();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            say(&format!("frontdesk: cannot start the async runtime: {e}"));
            return ExitCode::FAILURE;
        }
    };
    match cli.command {
        None => {
            if let Err(e) = color_eyre::install() {
                say(&format!("frontdesk: {e}"));
            }
            match runtime.block_on(frontdesk::tui::run(cli.global, cli.demo)) {
                Ok(exit) => ExitCode::from(exit.code()),
                Err(e) => {
                    // One inert line: the error may quote a path, a name or
                    // a server's words.
                    say(&format!(
                        "frontdesk: {}",
                        frontdesk::text::sanitize_line(&e.to_string())
                    ));
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Serve(args)) => match runtime.block_on(frontdesk::server::run(args.options())) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                say(&format!("frontdesk serve: {e}"));
                ExitCode::FAILURE
            }
        },
        Some(command) => {
            ExitCode::from(runtime.block_on(frontdesk::cli::run_with(cli.global, cli.output, command)) as u8)
        }
    }
}
