//! The catalog as the user meets it: fetched once, refreshed on purpose.

use crossterm::event::KeyCode;

use crate::api::{ApiError, Template};
use crate::tui::account::AccountEffect;
use crate::tui::account::AccountMsg;
use crate::tui::compose::Stage;
use crate::tui::effect::Effect;
use crate::tui::fixtures::{code, ctrl, key, model_with};
use crate::tui::model::Model;
use crate::tui::model::catalog::Part;
use crate::tui::msg::Msg;
use crate::tui::update::tests::catalog_fetch;
use crate::tui::update::{startup, update};

fn template(uuid: &str, title: &str) -> Template {
    Template {
        uuid: uuid.into(),
        title: title.into(),
        status: "approved".into(),
        text: "Hello".into(),
        ..Default::default()
    }
}

fn answer_templates(m: &mut Model, fx: &[Effect], list: Vec<Template>) {
    let id = catalog_fetch(fx, Part::Templates);
    update(m, Msg::Account(AccountMsg::Templates { id, result: Ok(list) }));
}

#[test]
fn the_catalog_is_fetched_once_for_the_whole_app() {
    let mut m = model_with(3, 160, 48);
    let fx = startup(&mut m);
    let plan = catalog_fetch(&fx, Part::Plan);
    let funnels = catalog_fetch(&fx, Part::Funnels);
    let teams = catalog_fetch(&fx, Part::Teams);
    update(
        &mut m,
        Msg::Account(AccountMsg::Plan {
            id: plan,
            result: Ok(Default::default()),
        }),
    );
    update(
        &mut m,
        Msg::Account(AccountMsg::Funnels {
            id: funnels,
            result: Ok(vec![]),
        }),
    );
    update(
        &mut m,
        Msg::Account(AccountMsg::Teams {
            id: teams,
            result: Ok(vec![]),
        }),
    );
    // The overlay's plan and teams tabs use what start-up fetched.
    let mut asked = update(&mut m, key('A'));
    let templates = catalog_fetch(&asked, Part::Templates);
    update(
        &mut m,
        Msg::Account(AccountMsg::Templates {
            id: templates,
            result: Ok(vec![]),
        }),
    );
    for k in ['3', '4', '1'] {
        asked.extend(update(&mut m, key(k)));
    }
    // Closed and opened again: nothing is fetched a second time.
    update(&mut m, code(KeyCode::Esc));
    asked.extend(update(&mut m, key('A')));
    let fetches: Vec<_> = asked
        .iter()
        .filter(|e| matches!(e, Effect::Account(a) if !matches!(a, AccountEffect::FetchEvents { .. })))
        .collect();
    assert_eq!(fetches.len(), 1, "only the templates, once: {fetches:?}");
    // The composer's template picker uses the same list: no request.
    update(&mut m, code(KeyCode::Esc));
    update(&mut m, key('R'));
    let fx = update(&mut m, ctrl('t'));
    assert!(!fx.iter().any(|e| matches!(e, Effect::Account(_))), "{fx:?}");
}

#[test]
fn r_in_the_overlay_refreshes_the_list_the_composer_uses() {
    let mut m = model_with(3, 160, 48);
    let fx = update(&mut m, key('A'));
    answer_templates(&mut m, &fx, vec![template("t1", "Old")]);
    let fx = update(&mut m, key('r'));
    answer_templates(&mut m, &fx, vec![template("t1", "Old"), template("t2", "New")]);
    update(&mut m, code(KeyCode::Esc));
    update(&mut m, key('R'));
    let fx = update(&mut m, ctrl('t'));
    assert!(!fx.iter().any(|e| matches!(e, Effect::Account(_))), "{fx:?}");
    update(&mut m, code(KeyCode::Down));
    let Stage::Templates(p) = &m.compose.stage else {
        panic!("{:?}", m.compose.stage)
    };
    assert_eq!(p.highlighted(), Some("t2"), "the refreshed list has the new one");
}

#[test]
fn a_failed_refresh_keeps_the_list_and_says_why() {
    let mut m = model_with(3, 160, 48);
    let fx = update(&mut m, key('A'));
    answer_templates(&mut m, &fx, vec![template("t1", "Kept")]);
    let fx = update(&mut m, key('r'));
    let id = catalog_fetch(&fx, Part::Templates);
    update(
        &mut m,
        Msg::Account(AccountMsg::Templates {
            id,
            result: Err(ApiError::Transport("connection refused".into())),
        }),
    );
    let t = &m.catalog.templates;
    assert_eq!(t.data.as_ref().map(Vec::len), Some(1));
    assert!(t.error.as_deref().unwrap().contains("connection refused"), "{t:?}");
}

#[test]
fn the_composer_waits_for_a_fetch_the_overlay_started() {
    let mut m = model_with(3, 160, 48);
    let fx = update(&mut m, key('A'));
    update(&mut m, code(KeyCode::Esc));
    update(&mut m, key('R'));
    // Templates are on their way: Ctrl-T does not ask again.
    let again = update(&mut m, ctrl('t'));
    assert!(!again.iter().any(|e| matches!(e, Effect::Account(_))), "{again:?}");
    assert!(matches!(m.compose.stage, Stage::LoadingTemplates));
    answer_templates(&mut m, &fx, vec![template("t1", "Hi")]);
    assert!(matches!(m.compose.stage, Stage::Templates(_)), "{:?}", m.compose.stage);
}
