//! What a form is made of: its fields' kinds, values and checks.

/// What a key did to a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormOutcome {
    Pending,
    Cancelled,
    Submitted,
}

/// A field's current value.
#[derive(Clone, Debug, PartialEq)]
pub enum FormValue {
    Text(String),
    One(Option<String>),
    Many(Vec<String>),
}

/// Which field of a form. Values are read by id, so a misspelt field is a
/// compile error instead of an empty value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FieldId {
    Name,
    Identifier,
    Source,
    Tags,
    /// Tags to remove from many contacts.
    RemoveTags,
    AssignedUser,
    Team,
    Channel,
    Bot,
    Note,
    Title,
    /// The one value of a single-field form (a custom field's quick edit).
    Value,
    /// The webhook log filter's event kinds and page size.
    EventKinds,
    PageSize,
    /// A template's `{{n}}`.
    Placeholder(u32),
    /// A custom field, by its name.
    Custom(String),
    /// The view filter form's rules (`f`).
    ViewState,
    Waiting,
    TagsAny,
    FieldRule,
    Text,
    OlderThan,
    /// The name to save a view under.
    ViewName,
    /// A file's web address and its kind (the composer's `C-o`).
    Url,
    MediaKind,
}

/// One field of a form.
#[derive(Clone, Debug)]
pub struct FieldSpec {
    pub key: FieldId,
    pub label: String,
    pub kind: FieldKind,
    pub required: bool,
    pub help: Option<String>,
}

/// The kind of a field, with its initial value.
#[derive(Clone, Debug)]
pub enum FieldKind {
    /// Single line.
    Text { value: String, check: TextCheck },
    /// Picker with type-to-filter (fuzzy); `allow_custom`: a typed value
    /// not in `options` can be taken.
    Choice {
        options: Vec<String>,
        selected: Option<String>,
        allow_none: bool,
        allow_custom: bool,
    },
    /// Multi-select: Space toggles, typing filters, typed new entries when
    /// `allow_custom`.
    Multi {
        options: Vec<String>,
        selected: Vec<String>,
        allow_custom: bool,
    },
    /// Multi-line text with a live character count; over the limit blocks submit.
    Note { value: String, max_chars: usize },
}

/// Inline checks of a single-line field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextCheck {
    Any,
    Email,
    Number,
    /// YYYY-MM-DD, a real date.
    Date,
}
