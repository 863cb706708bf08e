//! Placeholder: the embedded reference server lands from branch `server`.

#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ServerError(pub String);

pub async fn run(args: ServeArgs) -> Result<(), ServerError> {
    let _ = args;
    todo!()
}
