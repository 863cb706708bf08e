//! Help and the palette through the root's update: what opens them, how
//! they scroll, close and pick.

use crossterm::event::KeyCode;

use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::keymap::KEYMAP;
use crate::tui::model::{FormKind, Model, Overlay};
use crate::tui::msg::WriteKind;
use crate::tui::update::tests::type_text;
use crate::tui::update::update;

#[test]
fn help_lists_every_keymap_entry() {
    let mut m = model_with(5, 160, 48);
    update(&mut m, key('?'));
    assert!(matches!(m.overlay, Some(Overlay::Help { .. })));
    let text: String = crate::tui::overlays::all_lines(&m.keys, &crate::tui::theme::Theme::plain())
        .iter()
        .map(|l| l.to_string() + "\n")
        .collect();
    for b in KEYMAP {
        assert!(text.contains(b.help) && text.contains(b.label), "{} in help", b.name);
    }
    update(&mut m, code(KeyCode::Esc));
    assert!(m.overlay.is_none());
}

#[test]
fn palette_runs_an_action() {
    let mut m = model_with(5, 160, 48);
    update(&mut m, key(':'));
    assert!(matches!(m.overlay, Some(Overlay::Palette(_))));
    type_text(&mut m, "close");
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(m.overlay.is_none());
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::Apply {
            action: crate::triage::bulk::Action::Close,
            ..
        }
    )));
    update(&mut m, ctrl('k'));
    assert!(matches!(m.overlay, Some(Overlay::Palette(_))));
    type_text(&mut m, "help");
    update(&mut m, code(KeyCode::Enter));
    assert!(matches!(m.overlay, Some(Overlay::Help { .. })));
}

#[test]
fn palette_ranks_a_match_on_the_name_above_one_in_the_description() {
    let mut m = model_with(5, 160, 48);
    update(&mut m, key(':'));
    // `filter`'s help says "source, tags, team": it still matches, below.
    type_text(&mut m, "tag");
    let Some(Overlay::Palette(p)) = &m.overlay else {
        panic!()
    };
    assert_eq!(p.highlighted(), Some("tags"));
    update(&mut m, code(KeyCode::Enter));
    assert!(
        matches!(
            &m.overlay,
            Some(Overlay::Form {
                kind: FormKind::Write(WriteKind::Tags),
                ..
            })
        ),
        "Enter on `tag` opens the tags form"
    );
}

#[test]
fn palette_still_finds_an_action_by_its_description() {
    use crate::tui::form::fuzzy::fuzzy_rank_named;
    let items = [
        ("filter", "Filter: source, tags, team (f)"),
        ("tags", "Edit tags (t)"),
        ("quit", "Quit (q)"),
    ];
    assert_eq!(fuzzy_rank_named("tag", items), [1, 0]);
    assert_eq!(fuzzy_rank_named("team", items), [0]);
}

#[test]
fn help_scrolls_by_line_and_page_within_its_rows_at_80x24() {
    let mut m = model_with(5, 80, 24);
    update(&mut m, key('?'));
    let layout = crate::tui::overlays::layout_for(&m.keys, 80, 24);
    let max = layout.max_scroll();
    let scroll = |m: &Model| match m.overlay {
        Some(Overlay::Help { scroll }) => scroll,
        _ => panic!("help closed"),
    };
    update(&mut m, key('j'));
    assert_eq!(scroll(&m), 1);
    update(&mut m, code(KeyCode::PageDown));
    assert_eq!(scroll(&m), (1 + layout.visible as u16 - 1).min(max));
    update(&mut m, key('G'));
    assert_eq!(scroll(&m), max);
    update(&mut m, key('j'));
    update(&mut m, code(KeyCode::PageDown));
    assert_eq!(scroll(&m), max, "never past the last row");
    update(&mut m, code(KeyCode::PageUp));
    assert_eq!(scroll(&m), max.saturating_sub(layout.visible as u16 - 1));
    update(&mut m, key('g'));
    assert_eq!(scroll(&m), 0);
    update(&mut m, key('k'));
    assert_eq!(scroll(&m), 0);
}

#[test]
fn help_scrolls_and_closes_with_the_keys_the_config_binds() {
    let mut m = model_with(5, 80, 24);
    let bind = |action: &str, key: &str| crate::config::KeyEntry {
        action: action.into(),
        keys: vec![key.into()],
        at: "test".into(),
    };
    let (keys, problems) =
        crate::tui::keymap::Keymap::resolve(&[bind("next", "Z"), bind("bottom", "E"), bind("help", "H")]);
    assert!(problems.is_empty(), "{problems:?}");
    m.keys = std::sync::Arc::new(keys);
    update(&mut m, key('H'));
    assert!(matches!(m.overlay, Some(Overlay::Help { scroll: 0 })), "H opens help");
    update(&mut m, key('Z'));
    assert!(
        matches!(m.overlay, Some(Overlay::Help { scroll: 1 })),
        "z scrolls the help as it moves the list"
    );
    update(&mut m, key('E'));
    let max = crate::tui::overlays::layout_for(&m.keys, 80, 24).max_scroll();
    assert!(
        matches!(m.overlay, Some(Overlay::Help { scroll }) if scroll == max),
        "E goes to the end"
    );
    update(&mut m, key('H'));
    assert!(m.overlay.is_none(), "the key that opens help closes it");
}

/// The composer's actions are in the palette (and help): chosen, the
/// composer opens on the selected contact, then the action runs.
#[test]
fn palette_opens_the_composer_and_runs_its_action() {
    use crate::tui::compose::{ComposeEffect, Stage};
    let mut m = model_with(5, 160, 48);
    m.compose.snippets = crate::snippets::parse("thanks = \"Thanks!\"").unwrap();
    let uuid = m.list.selected_uuid().unwrap();
    let help: String = crate::tui::overlays::all_lines(&m.keys, &crate::tui::theme::Theme::plain())
        .iter()
        .map(|l| l.to_string() + "\n")
        .collect();
    assert!(
        help.contains("compose.editor") && help.contains("compose.snippet"),
        "in help"
    );

    update(&mut m, key(':'));
    type_text(&mut m, "compose.snippet");
    update(&mut m, code(KeyCode::Enter));
    assert!(m.overlay.is_none());
    assert_eq!(m.compose.open.as_deref(), Some(uuid.as_str()));
    assert!(matches!(m.compose.stage, Stage::Snippets { slash: None, .. }));
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(m.compose.draft(&uuid), "Thanks!", "the picker's choice goes in");

    // With the composer open, `:` is typed; closed again, the editor
    // action opens it and hands the draft to $EDITOR.
    update(&mut m, code(KeyCode::Esc));
    assert!(m.compose.open.is_none(), "Esc keeps the draft and closes");
    update(&mut m, key(':'));
    type_text(&mut m, "compose.editor");
    let fx = update(&mut m, code(KeyCode::Enter));
    assert_eq!(m.compose.open.as_deref(), Some(uuid.as_str()));
    assert!(
        fx.iter().any(|e| matches!(
            e,
            Effect::Compose(ComposeEffect::Editor { contact, text }) if *contact == uuid && text == "Thanks!"
        )),
        "{fx:?}"
    );
}
