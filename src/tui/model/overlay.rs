//! What covers the panes: help, the palette, a form or a picker.

pub use crate::tui::act::FormKind;
use crate::tui::act::{Confirm, Summary};
use crate::tui::form::{Form, FuzzyPicker};
use crate::tui::msg::ReqId;

pub enum Overlay {
    Help {
        scroll: u16,
    },
    Palette(FuzzyPicker),
    /// A form for `kind` on contact `uuid` ("" for a new contact or the filter).
    Form {
        kind: FormKind,
        uuid: String,
        form: Form,
        /// The save in flight, if any.
        saving: Option<ReqId>,
    },
    CustomStatus(FuzzyPicker),
    /// The history of the agent's actions (`U`), newest first.
    History {
        selected: usize,
    },
    /// "Close 120 conversations? y/n" before an action on many.
    Confirm(Box<Confirm>),
    /// How an action on many ended, when not all went well.
    Summary(Summary),
}

impl std::fmt::Debug for Overlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Overlay::Help { .. } => f.write_str("Help"),
            Overlay::Palette(_) => f.write_str("Palette"),
            Overlay::Form { kind, uuid, saving, .. } => write!(f, "Form({kind:?}, {uuid}, saving {saving:?})"),
            Overlay::CustomStatus(_) => f.write_str("CustomStatus"),
            Overlay::History { selected } => write!(f, "History({selected})"),
            Overlay::Confirm(c) => write!(f, "Confirm({})", c.question),
            Overlay::Summary(s) => write!(f, "Summary({})", s.title),
        }
    }
}
