//! Temporary thin entry point: only `frontdesk serve` until the CLI lands.
use clap::Parser;

#[derive(Parser)]
#[command(name = "frontdesk", version, about)]
enum Cli {
    /// Run the embedded reference server.
    Serve(frontdesk::server::ServeArgs),
}

#[tokio::main]
async fn main() -> Result<(), frontdesk::server::ServerError> {
    match Cli::parse() {
        Cli::Serve(args) => frontdesk::server::run(args).await,
    }
}
