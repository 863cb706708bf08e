//! Names in CJK, emoji, ZWJ sequences, flags and VS16 sequences, in every
//! pane and overlay at 80x24: each box keeps its right border in its
//! column on every row (checked as code by `grid::intact`), and nothing
//! is drawn under a wide grapheme.

use crossterm::event::KeyCode;
use insta::assert_snapshot;

use super::draw;
use super::grid::assert_intact;
use crate::api::CustomStatus;
use crate::tui::fixtures::*;
use crate::tui::model::{Model, Pane};
use crate::tui::msg::Msg;
use crate::tui::update::update;

pub(crate) const WIDE_NAMES: &[&str] = &[
    "山田太郎 株式会社テスト営業部",
    "👩‍💻 Dev 👨‍👩‍👧‍👦 family",
    "🇯🇵 Tanaka 🇧🇷 Silva",
    "❤️ Love ☺️ ✔️ ok",
    "🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f} England",
    "Zoë 👍🏽 Émile e\u{301}",
    "한국어 이름 테스트 김철수",
    "ｶﾞｷﾞ halfwidth",
];

/// A model at `w` x `h` whose contacts, tags, teams and collaborators
/// carry wide names.
pub(crate) fn wide_model(w: u16, h: u16) -> Model {
    let items = (0..12)
        .map(|i| {
            let mut c = contact(i);
            c.name = WIDE_NAMES[i % WIDE_NAMES.len()].to_string();
            c.tags = vec![WIDE_NAMES[(i + 1) % WIDE_NAMES.len()].to_string(), "标签".into()];
            c.assigned_user = Some(format!("{}@例子.中国", WIDE_NAMES[(i + 2) % WIDE_NAMES.len()]));
            c
        })
        .collect();
    let mut m = model_of(items, None, w, h);
    m.known.teams = WIDE_NAMES
        .iter()
        .enumerate()
        .map(|(i, n)| (format!("t{i}"), n.to_string()))
        .collect();
    m.known.tags = WIDE_NAMES.iter().map(|n| n.to_string()).collect();
    m.known.collaborators = WIDE_NAMES.iter().map(|n| format!("{n}@例子.中国")).collect();
    m
}

fn esc(m: &mut Model) {
    update(m, code(KeyCode::Esc));
}

#[test]
fn wide_names_keep_every_border_in_its_column_at_80x24() {
    for (row, name) in WIDE_NAMES.iter().enumerate() {
        let mut m = wide_model(80, 24);
        for _ in 0..row {
            update(&mut m, key('j'));
        }
        let at = |what: &str| format!("{what} on {name:?}");
        assert_intact(draw(&m).backend().buffer(), &at("list"));
        for p in [Pane::Thread, Pane::Details] {
            m.focus = p;
            assert_intact(draw(&m).backend().buffer(), &at(&format!("{p:?}")));
        }
        m.focus = Pane::List;
        for k in ['e', 'n', 't', 'a', 'T', 'f', '?', ':', 'U'] {
            update(&mut m, key(k));
            assert_intact(draw(&m).backend().buffer(), &at(&format!("overlay {k}")));
            esc(&mut m);
        }
        let statuses = WIDE_NAMES
            .iter()
            .enumerate()
            .map(|(i, n)| CustomStatus {
                id: format!("cs{i}"),
                name: n.to_string(),
                emoji: "🍔".into(),
                ..Default::default()
            })
            .collect();
        update(
            &mut m,
            Msg::Details(crate::tui::details::DetailsMsg::CustomStatusesLoaded(Ok(statuses))),
        );
        update(&mut m, key('s'));
        assert_intact(draw(&m).backend().buffer(), &at("custom status"));
    }
}

#[test]
fn wide_names_snapshots() {
    let mut m = wide_model(80, 24);
    assert_snapshot!("wide_names_list_80x24", draw(&m).backend());
    update(&mut m, key('t'));
    assert_snapshot!("wide_names_tags_80x24", draw(&m).backend());
    esc(&mut m);
    update(&mut m, key('e'));
    assert_snapshot!("wide_names_edit_80x24", draw(&m).backend());
}

/// The name from issue 38: CJK, emoji, a flag and ZWJ sequences.
const ISSUE_NAME: &str = "龍之介 山田👩\u{200d}💻🇯🇵家族👨\u{200d}👩\u{200d}👧\u{200d}👦テスト";

#[test]
fn a_name_with_zwj_sequences_keeps_the_borders_where_tmux_draws_them() {
    let mut c = contact(0);
    c.name = ISSUE_NAME.into();
    let mut m = model_of(vec![c, contact(1)], None, 80, 24);
    update(&mut m, code(KeyCode::Enter));
    for (p, name) in [(Pane::Thread, "thread"), (Pane::Details, "details")] {
        m.focus = p;
        let t = draw(&m);
        assert_intact(t.backend().buffer(), name);
        assert_snapshot!(format!("issue_name_{name}_80x24"), t.backend());
    }
    for (k, name) in [('e', "edit"), ('t', "tags")] {
        update(&mut m, key(k));
        let t = draw(&m);
        assert_intact(t.backend().buffer(), name);
        assert_snapshot!(format!("issue_name_{name}_80x24"), t.backend());
        esc(&mut m);
    }
}
