//! Forms and pickers: the overlays through which every contact action takes
//! its input. A `Form` is plain data (Clone), so the model keeps it as a
//! draft while its request runs and shows it again if the request fails.
//!
//! Keys come from the keymap the caller passes (rows `form.*`, `picker.*`,
//! `text.*`, `box.*`; the layers are described in `keymap::editing`). By
//! default: Tab / Shift-Tab move between fields (Down/Up too on single-line
//! fields); inside a picker Up/Down move the highlight and typing filters
//! (in a multi-select Space toggles, unless a filter is being typed);
//! Enter submits (in a multi-select with a typed filter it first adds the
//! highlighted entry); Ctrl-S submits from anywhere, the note included;
//! Esc cancels.

mod contact_forms;
mod field;
pub(crate) mod fuzzy;
mod input;
mod many_forms;
mod new_contact;
mod render;
mod spec;
mod state;
mod view_form;

#[cfg(test)]
mod tests;

pub use contact_forms::{
    assign_form, assign_patch, custom_status_picker, edit_contact_form, edit_contact_patch, filter_form, filter_value,
    note_form, note_patch, tags_form, tags_patch, team_form, team_patch,
};
pub use field::textarea_key;
pub use fuzzy::{FuzzyPicker, PickItem, PickOutcome};
pub use many_forms::{bot_form, bot_value, tags_change_form, tags_change_value};
pub use new_contact::{new_contact_body, new_contact_form};
pub use spec::{FieldId, FieldKind, FieldSpec, FormOutcome, FormValue, TextCheck};
pub use state::Form;
pub use view_form::{view_filter_form, view_filter_value};
