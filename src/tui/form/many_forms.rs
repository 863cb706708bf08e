//! The forms of an action on many marked contacts: tags to add and tags to
//! remove (never a replacement: each contact keeps its other tags), and
//! whether to start or stop the bot. Assign and team reuse the one-contact
//! forms, titled for the count.

use super::contact_forms::{form_many, form_one, spec};
use super::spec::{FieldId, FieldKind};
use super::state::Form;

/// `t` with marks: two pickers, add and remove.
pub fn tags_change_form(count: usize, known_tags: &[String]) -> Form {
    let picker = || FieldKind::Multi {
        options: known_tags.to_vec(),
        selected: Vec::new(),
        allow_custom: true,
    };
    Form::new(
        format!("Tags of {count} contacts"),
        vec![
            spec(
                FieldId::Tags,
                "Add",
                picker(),
                false,
                Some("each contact keeps its other tags"),
            ),
            spec(FieldId::RemoveTags, "Remove", picker(), false, None),
        ],
    )
}

/// The tags to add and to remove; Err when both are empty or a tag is in
/// both.
pub fn tags_change_value(form: &Form) -> Result<(Vec<String>, Vec<String>), String> {
    let add = form_many(form, &FieldId::Tags);
    let remove = form_many(form, &FieldId::RemoveTags);
    if add.is_empty() && remove.is_empty() {
        return Err("choose tags to add or to remove".into());
    }
    if let Some(both) = add.iter().find(|a| remove.iter().any(|r| r.eq_ignore_ascii_case(a))) {
        return Err(format!("\"{both}\" is both added and removed"));
    }
    Ok((add, remove))
}

const START: &str = "start the bot";
const STOP: &str = "stop the bot";

/// `b` with marks: start or stop, nothing in between.
pub fn bot_form(count: usize) -> Form {
    let kind = FieldKind::Choice {
        options: vec![START.into(), STOP.into()],
        selected: None,
        allow_none: false,
        allow_custom: false,
    };
    Form::new(
        format!("Bot of {count} contacts"),
        vec![spec(FieldId::Bot, "Bot", kind, true, None)],
    )
}

/// True: start; false: stop.
pub fn bot_value(form: &Form) -> Result<bool, String> {
    match form_one(form, &FieldId::Bot).as_deref() {
        Some(START) => Ok(true),
        Some(STOP) => Ok(false),
        _ => Err("bot: choose start or stop".into()),
    }
}
