//! Server text with invisible, bidi and tag characters and flags, in every
//! pane and overlay: none reaches a cell as it came (each shows as a
//! `<U+XXXX>` placeholder, flags as letters), whatever path the text took.

use crossterm::event::KeyCode;

use super::draw;
use crate::api::CustomStatus;
use crate::tui::act::tests::view::undo::close_selected;
use crate::tui::fixtures::*;
use crate::tui::model::{Model, Pane};
use crate::tui::msg::Msg;
use crate::tui::update::update;

const SNEAKY: &[char] = &[
    '\u{200b}',
    '\u{2060}',
    '\u{202e}',
    '\u{2066}',
    '\u{200f}',
    '\u{feff}',
    '\u{ad}',
    '\u{e0041}',
    '\u{1f1ef}',
];

fn sneaky(i: usize) -> String {
    format!("Ana{}Souza 🇯🇵 {}", SNEAKY[i % SNEAKY.len()], i)
}

fn model() -> Model {
    let items = (0..SNEAKY.len())
        .map(|i| {
            let mut c = contact(i);
            c.name = sneaky(i);
            c.tags = vec![sneaky(i + 1)];
            c.assigned_user = Some(sneaky(i + 2));
            c.source = sneaky(i + 3);
            c
        })
        .collect();
    let mut m = model_of(items, None, 80, 24);
    m.known.teams = (0..SNEAKY.len()).map(|i| (format!("t{i}"), sneaky(i))).collect();
    m.known.tags = (0..SNEAKY.len()).map(sneaky).collect();
    m.known.collaborators = (0..SNEAKY.len()).map(sneaky).collect();
    m.session.account = sneaky(4);
    m
}

fn assert_inert(m: &Model, what: &str) {
    let t = draw(m);
    let buf = t.backend().buffer();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            let s = buf[(x, y)].symbol();
            if let Some(c) = s
                .chars()
                .find(|c| SNEAKY.contains(c) || ('\u{1f1e6}'..='\u{1f1ff}').contains(c))
            {
                panic!(
                    "{what}: U+{:04X} reached the cell at ({x}, {y})\n{}",
                    c as u32,
                    t.backend()
                );
            }
        }
    }
}

#[test]
fn no_invisible_character_or_flag_reaches_a_cell() {
    let mut m = model();
    assert_inert(&m, "list");
    let shown = format!("{}", draw(&m).backend());
    assert!(shown.contains("Ana<U+200B>Souza JP 0"), "{shown}");
    for p in [Pane::Thread, Pane::Details] {
        m.focus = p;
        assert_inert(&m, &format!("{p:?}"));
    }
    m.focus = Pane::List;
    for k in ['e', 'n', 't', 'a', 'T', 'f', '?', ':'] {
        update(&mut m, key(k));
        assert_inert(&m, &format!("overlay {k}"));
        update(&mut m, code(KeyCode::Esc));
    }
    let statuses = (0..SNEAKY.len())
        .map(|i| CustomStatus {
            id: format!("cs{i}"),
            name: sneaky(i),
            emoji: "🍔".into(),
            ..Default::default()
        })
        .collect();
    update(
        &mut m,
        Msg::Details(crate::tui::details::DetailsMsg::CustomStatusesLoaded(Ok(statuses))),
    );
    update(&mut m, key('s'));
    assert_inert(&m, "custom status");
    update(&mut m, code(KeyCode::Esc));
    for _ in 0..3 {
        close_selected(&mut m);
        assert_inert(&m, "undo toast");
        update(&mut m, key('j'));
    }
    update(&mut m, key('U'));
    assert_inert(&m, "history");
}
