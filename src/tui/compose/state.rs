//! The reply composer: drafts per contact, the message in flight, sent
//! messages with their delivery status, and the template picker.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use ratatui_textarea::{TextArea, WrapMode};

use crate::api::{DeliveryStatus, Template};
use crate::tui::form::{Form, FuzzyPicker};
use crate::tui::shared::{Badge, Pane, ReqId};

/// On the row of a contact with an unsent reply kept.
pub const DRAFT: Badge = Badge {
    name: "draft",
    label: "draft",
    hides: false,
};

/// A message this session sent (or is sending).
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    pub contact: String,
    /// What the thread shows (a template with its values filled in).
    pub text: String,
    pub at: DateTime<Utc>,
    /// The send request; `None` once answered.
    pub sending: Option<ReqId>,
    /// The server's uuid, once accepted.
    pub uuid: Option<String>,
    pub status: Option<DeliveryStatus>,
    /// The status poll in flight, and how many were made.
    pub poll: Option<ReqId>,
    pub polls: u8,
    /// A text send (clears the draft on success), not a template.
    pub is_text: bool,
}

impl Outgoing {
    /// The marker next to the message: `sending…`, `✓ sent`, `✓✓ read`…
    pub fn marker(&self) -> String {
        if self.sending.is_some() {
            return "sending…".into();
        }
        match &self.status {
            None | Some(DeliveryStatus::Enqueued) => "✓ enqueued".into(),
            Some(DeliveryStatus::Sent) => "✓ sent".into(),
            Some(DeliveryStatus::Delivered) => "✓✓ delivered".into(),
            Some(DeliveryStatus::Read) => "✓✓ read".into(),
            Some(DeliveryStatus::Failed) => "✗ failed".into(),
            Some(DeliveryStatus::Other(s)) => crate::text::sanitize_line(s),
        }
    }
}

/// What the composer shows on top of its text area.
pub enum Stage {
    Edit,
    /// "dana replied 20 s ago: send anyway? y/n" (through a hub: a
    /// colleague sent to this customer since the composer opened, or is
    /// answering now).
    Colleague(String),
    /// Waiting for the catalog's templates.
    LoadingTemplates,
    Templates(FuzzyPicker),
    /// The snippet picker, opened by `/` typed at the start of a word
    /// (the `/` is in the text, at `slash`: row and char column) or by
    /// the snippet key when it is not a character; what is typed to
    /// filter goes into the text when it closes unchosen.
    Snippets {
        picker: FuzzyPicker,
        slash: Option<(usize, usize)>,
    },
    /// Values for the chosen template's placeholders.
    Values {
        template: Template,
        form: Form,
    },
    /// `C-o`: the URL and kind of a file for the reply.
    Attach(Form),
    /// The template filled with `values`, shown before it is sent; the
    /// form is kept to go back to.
    Preview {
        template: Template,
        values: Vec<String>,
        form: Form,
    },
}

impl std::fmt::Debug for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stage::Edit => f.write_str("Edit"),
            Stage::Colleague(why) => write!(f, "Colleague({why})"),
            Stage::LoadingTemplates => f.write_str("LoadingTemplates"),
            Stage::Templates(_) => f.write_str("Templates"),
            Stage::Snippets { picker, slash } => write!(f, "Snippets({:?} at {slash:?})", picker.query()),
            Stage::Values { template, .. } => write!(f, "Values({})", template.uuid),
            Stage::Preview { template, .. } => write!(f, "Preview({})", template.uuid),
            Stage::Attach(_) => f.write_str("Attach"),
        }
    }
}

#[derive(Debug)]
pub struct Compose {
    /// The contact whose composer is open.
    pub open: Option<String>,
    pub stage: Stage,
    /// Drafts by contact uuid (the open one included).
    pub drafts: HashMap<String, TextArea<'static>>,
    /// The last send error, by contact.
    pub errors: HashMap<String, String>,
    /// Contacts whose last text send hit the 24-hour rule.
    pub needs_template: HashMap<String, bool>,
    pub outbox: Vec<Outgoing>,
    /// The pane focused before the composer opened: Esc goes back to it.
    pub back: Option<Pane>,
    /// Colleagues' sends heard when the open composer opened (or last
    /// sent): one heard since is asked about before a send.
    pub since: u64,
    /// The contact whose draft changed since it was last written, and the
    /// timer that writes it when typing pauses (a later key's replaces it).
    pub dirty: Option<(String, ReqId)>,
    /// The drafts kept on disk, as last listed.
    pub kept: KeptDrafts,
    /// The canned replies (`crate::snippets`), read at start.
    pub snippets: crate::snippets::Snippets,
    /// The file by URL each contact's reply carries (`C-o`), by contact.
    pub attachments: HashMap<String, super::attach::Attachment>,
    /// A template send held while the agent is asked whether to send it
    /// although a colleague is answering (`Stage::Colleague`).
    pub held_template: Option<HeldTemplate>,
}

/// A template ready to go, held while the agent is asked about a
/// colleague: `form` (its values as typed) is where a "no" goes back to.
pub struct HeldTemplate {
    pub template: Template,
    pub values: Vec<String>,
    pub form: Option<Form>,
}

impl std::fmt::Debug for HeldTemplate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HeldTemplate({})", self.template.uuid)
    }
}

/// What the composer knows of the drafts directory, which another process
/// (`frontdesk mcp`) writes too: the clock lists it again when it changed.
#[derive(Debug, Clone, Default)]
pub struct KeptDrafts {
    /// Set once the drafts were listed at start.
    pub listed: bool,
    /// Contacts with a draft on disk, as last listed.
    pub contacts: std::collections::BTreeSet<String>,
    /// The directory as last listed.
    pub stamp: Option<crate::stamp::Stamp>,
    /// When the clock last looked.
    pub checked: Option<chrono::DateTime<chrono::Utc>>,
    /// Draft writes and deletes asked for and not answered yet: a listing
    /// meanwhile may miss them, so it is taken again instead of believed.
    pub writing: usize,
}

/// How often the clock looks whether the drafts directory changed.
pub const CHECK_DRAFTS_EVERY: chrono::Duration = chrono::Duration::seconds(3);

impl KeptDrafts {
    /// Whether it is time to look at the drafts directory again.
    pub fn check_due(&self, now: chrono::DateTime<chrono::Utc>) -> bool {
        self.listed && self.checked.is_none_or(|at| now - at >= CHECK_DRAFTS_EVERY || now < at)
    }
}

impl Default for Compose {
    fn default() -> Self {
        Compose {
            open: None,
            stage: Stage::Edit,
            drafts: HashMap::new(),
            errors: HashMap::new(),
            needs_template: HashMap::new(),
            outbox: Vec::new(),
            back: None,
            since: 0,
            dirty: None,
            kept: KeptDrafts::default(),
            snippets: crate::snippets::Snippets::default(),
            attachments: HashMap::new(),
            held_template: None,
        }
    }
}

/// An empty editor.
pub fn new_area() -> TextArea<'static> {
    let mut a = TextArea::default();
    a.set_wrap_mode(WrapMode::WordOrGlyph);
    a
}

impl Compose {
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// The open composer's editor.
    pub fn area_mut(&mut self) -> Option<&mut TextArea<'static>> {
        let uuid = self.open.clone()?;
        Some(self.drafts.entry(uuid).or_insert_with(new_area))
    }

    /// The draft text of `contact` ("" when none).
    pub fn draft(&self, contact: &str) -> String {
        self.drafts
            .get(contact)
            .map(|a| a.lines().join("\n"))
            .unwrap_or_default()
    }

    /// Whether a send is in flight for `contact`.
    pub fn sending(&self, contact: &str) -> bool {
        self.outbox.iter().any(|o| o.contact == contact && o.sending.is_some())
    }
}
