use std::process::ExitCode;

use frontdesk::cli::Command;

fn main() -> ExitCode {
    let cli = frontdesk::cli::parse();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("frontdesk: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match cli.command {
        None => {
            if let Err(e) = color_eyre::install() {
                eprintln!("frontdesk: {e}");
            }
            match runtime.block_on(frontdesk::tui::run(cli.global, cli.demo)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    // One inert line: the error may quote a path, a name or
                    // a server's words.
                    eprintln!("frontdesk: {}", frontdesk::text::sanitize_line(&e.to_string()));
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Serve(args)) => match runtime.block_on(frontdesk::server::run(args.options())) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("frontdesk serve: {e}");
                ExitCode::FAILURE
            }
        },
        Some(command) => {
            ExitCode::from(runtime.block_on(frontdesk::cli::run_with(cli.global, cli.output, command)) as u8)
        }
    }
}
