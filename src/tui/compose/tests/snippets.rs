//! Canned replies in the composer (`/` and the picker) and `$EDITOR`'s
//! answer, through the root's update.

use crossterm::event::KeyCode;

use crate::snippets::parse;
use crate::tui::compose::{ComposeEffect, ComposeMsg, Stage};
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::update::tests::*;
use crate::tui::update::update;

const FILE: &str = r#"
thanks = "Thanks {{contact.first_name}}, glad it works!"
[refund]
label = "Refund policy"
text = """
Hi {{contact.name}}, {{cursor}}
Your {{contact.custom.plan}} plan is refunded.
-- {{agent.name}}"""
"#;

/// Contact 0 (Ana Souza) shown, the composer open, with snippets.
fn composing() -> (Model, String) {
    let mut m = model_with(20, 160, 48);
    m.compose.snippets = parse(FILE).unwrap();
    let uuid = m.thread.contact.clone().unwrap();
    update(&mut m, key('R'));
    (m, uuid)
}

fn text(m: &Model, uuid: &str) -> String {
    m.compose.draft(uuid)
}

fn cursor(m: &Model, uuid: &str) -> (usize, usize) {
    let c = m.compose.drafts[uuid].cursor();
    (c.0, c.1)
}

fn picking(m: &Model) -> bool {
    matches!(m.compose.stage, Stage::Snippets { .. })
}

fn toasts(m: &Model) -> String {
    m.status
        .toasts
        .iter()
        .map(|t| t.text.clone())
        .collect::<Vec<_>>()
        .join(" | ")
}

#[test]
fn slash_at_a_words_start_opens_the_picker_but_not_inside_a_word() {
    let (mut m, uuid) = composing();
    update(&mut m, key('/'));
    assert!(picking(&m), "at the start of the text: {:?}", m.compose.stage);
    update(&mut m, code(KeyCode::Esc));
    assert!(!picking(&m));
    assert_eq!(text(&m, &uuid), "/");
    type_text(&mut m, " see https://x.test/a");
    assert!(!picking(&m), "a / in a URL is a character: {:?}", m.compose.stage);
    assert_eq!(text(&m, &uuid), "/ see https://x.test/a");
    update(&mut m, code(KeyCode::Enter));
    update(&mut m, key('/'));
    assert!(picking(&m), "at a line's start");
}

#[test]
fn typing_filters_and_enter_puts_the_filled_text_in_place_of_the_slash() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "Hello ");
    update(&mut m, key('/'));
    type_text(&mut m, "thk");
    let Stage::Snippets { picker, .. } = &m.compose.stage else {
        panic!("{:?}", m.compose.stage)
    };
    assert_eq!(picker.highlighted(), Some("thanks"));
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(!picking(&m));
    assert_eq!(text(&m, &uuid), "Hello Thanks Ana, glad it works!");
    assert_eq!(cursor(&m, &uuid), (0, text(&m, &uuid).chars().count()));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Compose(ComposeEffect::DraftPause { .. }))),
        "the draft is kept: {fx:?}"
    );
    // Typing goes on where the snippet ended.
    type_text(&mut m, " :)");
    assert_eq!(text(&m, &uuid), "Hello Thanks Ana, glad it works! :)");
}

#[test]
fn the_label_filters_too_and_the_cursor_lands_where_marked() {
    let (mut m, uuid) = composing();
    m.details.me.name = Some("Dana".into());
    let mut full = full_contact(0);
    full.uuid = uuid.clone();
    m.details.full = Some(full);
    update(&mut m, key('/'));
    type_text(&mut m, "policy");
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(
        text(&m, &uuid),
        "Hi Ana Souza, \nYour Gold plan is refunded.\n-- Dana",
        "the details' full record gives the custom fields"
    );
    assert_eq!(cursor(&m, &uuid), (0, "Hi Ana Souza, ".chars().count()));
    assert!(!toasts(&m).contains("no value"), "{}", toasts(&m));
}

#[test]
fn a_missing_variable_stays_visible_and_is_named() {
    let (mut m, uuid) = composing();
    // No full record, no agent name: the row has no custom fields.
    update(&mut m, key('/'));
    type_text(&mut m, "refund");
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(
        text(&m, &uuid),
        "Hi Ana Souza, \nYour {{contact.custom.plan}} plan is refunded.\n-- {{agent.name}}"
    );
    let said = toasts(&m);
    assert!(
        said.contains("{{contact.custom.plan}}") && said.contains("{{agent.name}}"),
        "{said}"
    );
}

#[test]
fn esc_keeps_what_was_typed_and_nothing_matching_is_not_chosen() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "go to ");
    update(&mut m, key('/'));
    type_text(&mut m, "etc");
    update(&mut m, code(KeyCode::Enter));
    assert!(picking(&m), "no match: Enter chooses nothing");
    update(&mut m, code(KeyCode::Esc));
    assert!(!picking(&m));
    assert_eq!(text(&m, &uuid), "go to /etc");
    assert_eq!(m.compose.open.as_deref(), Some(uuid.as_str()), "the composer stays");
}

#[test]
fn without_snippets_slash_is_a_character() {
    let (mut m, uuid) = composing();
    m.compose.snippets = Default::default();
    update(&mut m, key('/'));
    assert!(!picking(&m));
    assert_eq!(text(&m, &uuid), "/");
}

#[test]
fn the_snippet_key_rebound_opens_the_picker_at_the_cursor() {
    let (mut m, uuid) = composing();
    let entry = crate::config::KeyEntry {
        action: "compose.snippet".into(),
        keys: vec!["f2".into()],
        at: "test".into(),
    };
    let (keys, problems) = crate::tui::keymap::Keymap::resolve(&[entry]);
    assert!(problems.is_empty(), "{problems:?}");
    m.keys = std::sync::Arc::new(keys);
    type_text(&mut m, "a/");
    assert!(!picking(&m));
    update(&mut m, code(KeyCode::F(2)));
    assert!(picking(&m));
    type_text(&mut m, "thanks");
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(text(&m, &uuid), "a/Thanks Ana, glad it works!");
}

#[test]
fn ctrl_e_hands_the_draft_to_the_editor_and_its_text_comes_back() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "draft");
    let fx = update(&mut m, ctrl('e'));
    let asked = fx.iter().find_map(|e| match e {
        Effect::Compose(ComposeEffect::Editor { contact, text }) => Some((contact.clone(), text.clone())),
        _ => None,
    });
    assert_eq!(asked, Some((uuid.clone(), "draft".to_string())));
    let edited = |result| {
        Msg::Compose(ComposeMsg::Edited {
            contact: uuid.clone(),
            result,
        })
    };
    let fx = update(
        &mut m,
        edited(Err("vi exited with status 1: the draft is as it was".into())),
    );
    assert_eq!(text(&m, &uuid), "draft");
    assert!(toasts(&m).contains("status 1"), "{}", toasts(&m));
    assert!(fx.is_empty(), "{fx:?}");
    let fx = update(&mut m, edited(Ok("draft\nmore \u{1b}[2Jlines".into())));
    let now = text(&m, &uuid);
    assert!(now.starts_with("draft\nmore ") && now.ends_with("lines"), "{now:?}");
    assert!(!now.contains('\u{1b}'), "what the editor saved is made inert: {now:?}");
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Compose(ComposeEffect::DraftPause { .. }))),
        "{fx:?}"
    );
}
