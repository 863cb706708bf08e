//! `frontdesk hub`'s command line: run the hub, manage its agents, read
//! its audit log. The account key and base URL come from the client's own
//! resolution (`--api-key`/`FRONTDESK_API_KEY`/config file, `--base-url`).

use std::path::PathBuf;

mod args;
mod demo;
mod process;

use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::cli::output::sanitize;
use crate::hub::{HubError, agents, audit, store::Store};
pub use args::{AgentsCmd, HubArgs, HubCmd, RunArgs, WebhookCmd};

/// The data dir in force: the flag, the env, or the platform's data dir.
pub fn data_dir(args: &HubArgs) -> Result<PathBuf, CliError> {
    if let Some(d) = &args.data_dir {
        return Ok(d.clone());
    }
    directories::BaseDirs::new()
        .map(|d| d.data_dir().join("frontdesk").join("hub"))
        .ok_or_else(|| CliError::usage("no home directory: pass --data-dir"))
}

fn hub_err(e: HubError) -> CliError {
    match e {
        HubError::Usage(m) | HubError::Config(m) => CliError::Usage(m),
        other => CliError::Other(other.to_string()),
    }
}

pub async fn run(ctx: &mut Ctx<'_>, args: HubArgs) -> Result<(), CliError> {
    match &args.command {
        Some(HubCmd::Demo { addr, headless }) => {
            return demo::run(ctx, addr, args.data_dir.as_deref(), *headless).await;
        }
        Some(HubCmd::Join { name, print }) => {
            return demo::join(ctx, name, args.data_dir.as_deref(), *print).await;
        }
        _ => {}
    }
    let dir = data_dir(&args)?;
    match args.command.clone() {
        None => process::run(ctx, &args, dir).await,
        Some(HubCmd::Demo { .. } | HubCmd::Join { .. }) => Ok(()),
        Some(HubCmd::Webhook(cmd)) => webhook_cmd(ctx, &args, &dir, cmd),
        Some(HubCmd::Agents(cmd)) => {
            let store = Store::open(&dir).map_err(hub_err)?;
            agents_cmd(ctx, &store, cmd)
        }
        Some(HubCmd::Audit { since, limit }) => {
            let since = match since.as_deref().map(chrono::DateTime::parse_from_rfc3339) {
                None => None,
                Some(Ok(t)) => Some(t.with_timezone(&chrono::Utc)),
                Some(Err(_)) => return Err(CliError::usage("--since must be an RFC 3339 time")),
            };
            let store = Store::open(&dir).map_err(hub_err)?;
            let mut entries = audit::read(&store, since, limit).map_err(hub_err)?;
            // The contacts' names from the hub's index, when it has one.
            let index = dir.join("index.sqlite");
            if index.exists()
                && let Ok(mut opened) = crate::index::Index::open(&index)
            {
                audit::name_contacts(&mut opened.index, &mut entries);
            }
            let mut doc = String::new();
            if ctx.format == crate::cli::output::Format::Table {
                for e in &entries {
                    let contact = match (&e.name, &e.contact) {
                        (Some(n), Some(u)) => format!("{n} ({u})"),
                        (None, Some(u)) => u.clone(),
                        _ => "-".into(),
                    };
                    doc.push_str(&format!(
                        "{}  {}  {} {}  {}  {}\n",
                        sanitize(&e.at),
                        sanitize(&e.agent),
                        sanitize(&e.method),
                        sanitize(&e.path),
                        e.status,
                        sanitize(&contact)
                    ));
                }
            } else {
                doc = json_doc(ctx.format, &entries)?;
            }
            ctx.emit(&doc)
        }
    }
}

fn json_doc<T: serde::Serialize>(format: crate::cli::output::Format, items: &[T]) -> Result<String, CliError> {
    let mut doc = String::new();
    if format == crate::cli::output::Format::Jsonl {
        for i in items {
            doc.push_str(&serde_json::to_string(i).map_err(|e| CliError::Other(e.to_string()))?);
            doc.push('\n');
        }
    } else {
        doc = serde_json::to_string_pretty(items).map_err(|e| CliError::Other(e.to_string()))?;
        doc.push('\n');
    }
    Ok(doc)
}

fn agents_cmd(ctx: &mut Ctx<'_>, store: &Store, cmd: AgentsCmd) -> Result<(), CliError> {
    match cmd {
        AgentsCmd::Add {
            name,
            user_uuid,
            role,
            expires,
        } => {
            // `--email` is the global flag (the agent's collaborator email).
            let Some(email) = ctx.global.user_email.clone() else {
                return Err(CliError::usage("an agent needs --email (its collaborator email)"));
            };
            let lifetime = expires
                .as_deref()
                .map(agents::parse_lifetime)
                .transpose()
                .map_err(hub_err)?;
            let token =
                agents::add_with(store, &name, &email, user_uuid.as_deref(), role, lifetime).map_err(hub_err)?;
            let doc = if ctx.format == crate::cli::output::Format::Table {
                format!("{token}\n# the token of agent {name}: shown once, keep it (the hub stores only its hash)\n")
            } else {
                format!("{}\n", serde_json::json!({ "agent": name, "token": token }))
            };
            ctx.emit(&doc)
        }
        AgentsCmd::List => {
            let list = agents::list(store).map_err(hub_err)?;
            let doc = if ctx.format == crate::cli::output::Format::Table {
                list.iter()
                    .map(|a| {
                        format!(
                            "{}  {}  {}  {}  {}  {}\n",
                            sanitize(&a.name),
                            sanitize(&a.email),
                            sanitize(a.user_uuid.as_deref().unwrap_or("-")),
                            sanitize(&a.created_at),
                            a.role.as_str(),
                            sanitize(a.expires_at.as_deref().unwrap_or("-"))
                        )
                    })
                    .collect()
            } else {
                json_doc(ctx.format, &list)?
            };
            ctx.emit(&doc)
        }
        AgentsCmd::Role { name, role } => {
            agents::set_role(store, &name, role).map_err(hub_err)?;
            ctx.emit(&format!("agent {name} is now {}\n", role.as_str()))
        }
        AgentsCmd::Rotate { name, expires } => {
            let lifetime = expires
                .as_deref()
                .map(agents::parse_lifetime)
                .transpose()
                .map_err(hub_err)?;
            let token = agents::rotate(store, &name, lifetime).map_err(hub_err)?;
            let doc = if ctx.format == crate::cli::output::Format::Table {
                format!("{token}\n# the new token of agent {name}: shown once; the old one is refused from now on\n")
            } else {
                format!("{}\n", serde_json::json!({ "agent": name, "token": token }))
            };
            ctx.emit(&doc)
        }
        AgentsCmd::Remove { name } => {
            agents::remove(store, &name).map_err(hub_err)?;
            ctx.emit(&format!("removed agent {name}: its token is refused from now on\n"))
        }
    }
}

fn webhook_cmd(ctx: &mut Ctx<'_>, args: &HubArgs, dir: &std::path::Path, cmd: WebhookCmd) -> Result<(), CliError> {
    use crate::webhook::path;
    crate::index::private::ensure_dir(dir).map_err(CliError::Usage)?;
    let io = |e: std::io::Error| CliError::Other(format!("the hook secret cannot be kept: {e}"));
    let secret = match cmd {
        WebhookCmd::Url => path::load_or_create(dir).map_err(io)?,
        WebhookCmd::Rotate => path::rotate(dir).map_err(io)?,
    };
    let shown = match &args.run.public_url {
        Some(public) => path::url(public, &secret),
        None => format!("{}{secret}", path::PREFIX),
    };
    let mut doc = format!("{shown}\n");
    if args.run.public_url.is_none() {
        doc.push_str("# the path only: pass --public-url URL for the full delivery URL\n");
    }
    if matches!(cmd, WebhookCmd::Rotate) {
        doc.push_str("# rotated: the old hook path is refused from now on; register this one with the service\n");
    }
    ctx.emit(&doc)
}
