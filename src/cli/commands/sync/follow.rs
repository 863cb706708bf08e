//! `frontdesk sync --follow`: through a hub, the snapshot and then the
//! event stream applied to the local index as events arrive, one line an
//! event on stdout, until interrupted. A headless agent: what the TUI will
//! do with the stream, usable from scripts, tests and benches.

use serde_json::json;

use super::snapshot::from_hub;
use crate::cli::commands::shared::index_err;
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, api_err};
use crate::cli::output::Format;
use crate::cli::output::sanitize;
use crate::hubclient::{HubEvent, HubItem, apply_to_index};
use crate::index::Index;

pub async fn run(ctx: &mut Ctx<'_>, index: &mut Index) -> Result<(), CliError> {
    let Some(hub) = ctx.settings()?.hub().map_err(|e| CliError::Usage(e.to_string()))? else {
        return Err(CliError::usage(
            "--follow needs a hub: set hub_url and hub_token (or FRONTDESK_HUB_URL and FRONTDESK_HUB_TOKEN)",
        ));
    };
    let Some(first) = from_hub(ctx, index, "loading the hub's snapshot").await? else {
        return Err(CliError::Other("the hub settings could not be read".into()));
    };
    let _ = writeln!(
        ctx.err,
        "frontdesk: synced {} contacts from the hub; following its events (Ctrl-C ends)",
        first.seen
    );
    let mut stream = hub.events(Some(first.header.cursor));
    let interrupted = tokio::signal::ctrl_c();
    tokio::pin!(interrupted);
    loop {
        let item = tokio::select! {
            _ = &mut interrupted => return Ok(()),
            item = stream.next() => item.map_err(api_err("following the hub's events"))?,
        };
        match item {
            HubItem::Connected => {}
            HubItem::Disconnected { error, retry_in } => {
                let _ = writeln!(
                    ctx.err,
                    "frontdesk: the hub's event stream dropped ({}); reconnecting in {} ms",
                    sanitize(&error.to_string()),
                    retry_in.as_millis()
                );
            }
            HubItem::Event { id, event } => {
                let changed = apply_to_index(index, &event).map_err(index_err)?;
                print(ctx, id, &event, changed)?;
                if let HubEvent::Resync { .. } = event {
                    // Missed events: the snapshot is the truth again, and
                    // the stream goes on after it.
                    if let Some(r) = from_hub(ctx, index, "loading the hub's snapshot again").await? {
                        stream.skip_through(r.header.cursor);
                        let _ = writeln!(ctx.err, "frontdesk: missed events: loaded the hub's snapshot again");
                    }
                }
            }
        }
    }
}

fn print(ctx: &mut Ctx<'_>, id: u64, event: &HubEvent, changed: bool) -> Result<(), CliError> {
    let line = match ctx.format {
        Format::Json | Format::Jsonl => {
            json!({ "id": id, "event": event.kind(), "contact": event.contact(), "agent": event.agent(),
                    "changed": changed })
            .to_string()
        }
        Format::Table => {
            let mut line = format!("{id} {}", sanitize(event.kind()));
            for part in [event.contact(), event.agent()].into_iter().flatten() {
                line.push(' ');
                line.push_str(&sanitize(part));
            }
            line
        }
    };
    ctx.emit(&format!("{line}\n"))
}
