//! The composer's requests: a send, the status polls of a message sent
//! here, and keeping reply drafts on this machine (`crate::drafts`).

use std::path::PathBuf;
use std::time::Duration;

use super::msg::ComposeMsg;
use crate::api::{Client, SendMessage};
use crate::drafts::{Draft, Drafts};
use crate::stamp::Stamp;
use crate::tui::shared::ReqId;

/// Polls of a sent message's status, and the wait before each.
pub const MAX_POLLS: u8 = 5;
pub const POLL_EVERY: Duration = Duration::from_secs(2);
/// The pause in typing after which the draft is written down.
pub const DRAFT_PAUSE: Duration = Duration::from_secs(1);

#[derive(Debug, Clone, PartialEq)]
pub enum ComposeEffect {
    /// POST /messages/send (the client never retries it).
    Send {
        id: ReqId,
        contact: String,
        body: SendMessage,
    },
    /// GET /messages/status/:uuid after `after`.
    PollStatus { id: ReqId, uuid: String, after: Duration },
    /// Answers `DraftPause(id)` after `after`: typing paused.
    DraftPause { id: ReqId, after: Duration },
    /// Reads every draft kept in `dir` (at start: their rows' badges).
    ListDrafts { dir: PathBuf },
    /// Reads them again if `dir` is not as it was when last listed
    /// (`seen`): another process (`frontdesk mcp`) may have written one.
    CheckDrafts { dir: PathBuf, seen: Option<Stamp> },
    /// Reads `contact`'s draft (the composer opens on it).
    LoadDraft { dir: PathBuf, contact: String },
    /// Keeps `draft` in `dir`, over the contact's earlier one.
    SaveDraft { dir: PathBuf, draft: Draft },
    /// Deletes `contact`'s draft from `dir`.
    RemoveDraft { dir: PathBuf, contact: String },
    /// Runs `$VISUAL` or `$EDITOR` on `contact`'s draft, `text`: the app
    /// loop does (it hands the terminal over), answering `Edited`.
    Editor { contact: String, text: String },
}

impl ComposeEffect {
    /// Whether it talks to the service (background syncing waits while the
    /// agent's own requests run); a timer or a file does not.
    pub fn network(&self) -> bool {
        matches!(self, ComposeEffect::Send { .. } | ComposeEffect::PollStatus { .. })
    }

    /// Whether it reads or writes the drafts on disk: the runner runs
    /// these one after another, in the order they came (a save then a
    /// remove never lands the other way round), and waits for them before
    /// the app exits.
    pub fn in_order(&self) -> bool {
        matches!(
            self,
            ComposeEffect::ListDrafts { .. }
                | ComposeEffect::CheckDrafts { .. }
                | ComposeEffect::LoadDraft { .. }
                | ComposeEffect::SaveDraft { .. }
                | ComposeEffect::RemoveDraft { .. }
        )
    }
}

pub async fn perform(client: Client, effect: ComposeEffect) -> ComposeMsg {
    match effect {
        ComposeEffect::Send { id, contact, body } => {
            // From the contact's channel, to its number or else its bsuid.
            let result = client
                .send_to_contact(&crate::api::ContactId::new(contact.clone()), body)
                .await;
            ComposeMsg::Sent { id, contact, result }
        }
        ComposeEffect::PollStatus { id, uuid, after } => {
            tokio::time::sleep(after).await;
            let result = client.message_status(&crate::api::MessageId::new(uuid.clone())).await;
            ComposeMsg::Status { id, uuid, result }
        }
        ComposeEffect::DraftPause { id, after } => {
            tokio::time::sleep(after).await;
            ComposeMsg::DraftPause(id)
        }
        // Only the loop can lend the editor the terminal.
        ComposeEffect::Editor { contact, .. } => ComposeMsg::Edited {
            contact,
            result: Err("the editor runs in the app loop".into()),
        },
        disk => tokio::task::spawn_blocking(move || perform_drafts(disk))
            .await
            .unwrap_or_else(|e| ComposeMsg::DraftKept(Err(format!("keeping the draft stopped: {e}")))),
    }
}

/// The drafts' effects, on the calling thread (blocking file I/O).
pub fn perform_drafts(effect: ComposeEffect) -> ComposeMsg {
    let failed =
        |what: &str, dir: &std::path::Path, e: std::io::Error| format!("cannot {what} in {}: {e}", dir.display());
    match effect {
        ComposeEffect::ListDrafts { dir } => {
            ComposeMsg::DraftsListed(Drafts::in_dir(&dir).list().map_err(|e| failed("read drafts", &dir, e)))
        }
        ComposeEffect::CheckDrafts { dir, seen } => {
            let stamp = crate::stamp::stamp(&dir);
            if stamp == seen {
                return ComposeMsg::DraftsUnchanged;
            }
            let drafts = Drafts::in_dir(&dir).list().map_err(|e| failed("read drafts", &dir, e));
            ComposeMsg::DraftsChanged { stamp, drafts }
        }
        ComposeEffect::LoadDraft { dir, contact } => {
            let result = Drafts::in_dir(&dir)
                .load(&contact)
                .map_err(|e| failed("read the draft", &dir, e));
            ComposeMsg::DraftLoaded { contact, result }
        }
        ComposeEffect::SaveDraft { dir, draft } => ComposeMsg::DraftKept(
            Drafts::in_dir(&dir)
                .save(&draft)
                .map_err(|e| failed("keep the draft", &dir, e)),
        ),
        ComposeEffect::RemoveDraft { dir, contact } => ComposeMsg::DraftKept(
            Drafts::in_dir(&dir)
                .remove(&contact)
                .map(|_| ())
                .map_err(|e| failed("delete the draft", &dir, e)),
        ),
        other => ComposeMsg::DraftKept(Err(format!("not a draft's effect: {other:?}"))),
    }
}
