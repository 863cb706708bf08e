//! The template values form previews the filled template: Enter shows it,
//! a second Enter (or Ctrl-S) sends it, Esc goes back to the values.

use crossterm::event::KeyCode;
use insta::assert_snapshot;

use crate::api::Template;
use crate::tui::account::AccountMsg;
use crate::tui::compose::{ComposeEffect, Stage};
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::update::tests::*;
use crate::tui::update::update;

fn sends(fx: &[Effect]) -> usize {
    fx.iter()
        .filter(|e| matches!(e, Effect::Compose(ComposeEffect::Send { .. })))
        .count()
}

/// The values form of a template whose text has a hostile escape, on
/// contact 0, with both values typed.
fn values_typed() -> Model {
    let mut m = model_with(20, 100, 30);
    load_thread(&mut m, 3, None);
    update(&mut m, key('R'));
    update(&mut m, ctrl('t'));
    let id = m.catalog.templates.loading.expect("templates asked for");
    let t = Template {
        uuid: "t-ok".into(),
        title: "Order update".into(),
        status: "approved".into(),
        text: "Hi {{1}}, your order {{2}} is on its way\u{1b}[2J".into(),
        ..Default::default()
    };
    update(
        &mut m,
        Msg::Account(AccountMsg::Templates {
            id,
            result: Ok(vec![t]),
        }),
    );
    update(&mut m, code(KeyCode::Enter));
    assert!(matches!(m.compose.stage, Stage::Values { .. }));
    type_text(&mut m, "Ana");
    update(&mut m, code(KeyCode::Tab));
    type_text(&mut m, "#42");
    m
}

fn screen(m: &Model) -> String {
    let t = crate::tui::view::tests::draw(m);
    format!("{}", t.backend())
}

#[test]
fn enter_previews_the_filled_template_and_a_second_enter_sends_it() {
    let mut m = values_typed();
    assert_eq!(sends(&update(&mut m, code(KeyCode::Enter))), 0, "not at once");
    assert!(
        matches!(m.compose.stage, Stage::Preview { .. }),
        "{:?}",
        m.compose.stage
    );
    let text = screen(&m);
    assert!(text.contains("Hi Ana, your order #42 is on its way"), "{text}");
    assert_snapshot!("template_preview_100x30", text);
    assert_eq!(sends(&update(&mut m, code(KeyCode::Enter))), 1);
    assert!(matches!(m.compose.stage, Stage::Edit));
}

#[test]
fn esc_on_the_preview_goes_back_to_the_values_as_typed() {
    let mut m = values_typed();
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(sends(&update(&mut m, code(KeyCode::Esc))), 0);
    assert!(matches!(m.compose.stage, Stage::Values { .. }), "{:?}", m.compose.stage);
    type_text(&mut m, "3");
    update(&mut m, code(KeyCode::Enter));
    assert!(screen(&m).contains("your order #423 is on its way"));
    assert_eq!(sends(&submit(&mut m)), 1, "Ctrl-S sends too");
}
