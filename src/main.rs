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
            let result = runtime.block_on(frontdesk::tui::run(cli.global, cli.demo));
            // The screen is restored and the answer known: a background
            // task still inside a blocking call (an index write, a file)
            // must not hold the exit back, above all after a hang-up or
            // SIGTERM. What it was doing is kept by the index's transactions.
            runtime.shutdown_timeout(std::time::Duration::from_secs(2));
            match result {
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
