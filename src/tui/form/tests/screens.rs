//! Snapshots of every form and picker at 80x24 and 160x48, with hostile
//! text in the data; and a sweep of sizes that must never panic.

use crate::tui::keymap::DEFAULT_KEYS as KEYS;
use std::collections::BTreeMap;

use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

use super::contact::six_field_contact;
use super::keys::{k, typ};
use crate::api::{Contact, ContactFilter, FieldMeta, FieldType, FieldValue};
use crate::tui::form::*;
use crate::tui::theme::Theme;

const HOSTILE: &str = "Ana\u{1b}[2J 👍🏽 你好 مرحبا e\u{301}\u{302}";

fn s(v: &str) -> String {
    v.to_string()
}

fn hostile_contact() -> Contact {
    let mut c = six_field_contact();
    c.name = s(HOSTILE);
    c.note = Some(s("first line \u{1b}]52;c;aGk=\u{7}\nsecond: 你好 مرحبا 👍🏽\tend"));
    if let Some(m) = c.custom_fields_metadata.as_mut() {
        m.insert(
            s("city\u{1b}[31m"),
            FieldMeta {
                value: FieldValue::Text(s("東京 \u{1b}[2J")),
                field_type: FieldType::Text,
                options: vec![],
            },
        );
        if let Some(plan) = m.get_mut("plan") {
            plan.options.push(s("gold \u{1b}[5m👍🏽"));
            plan.options.push(s("مرحبا"));
        }
    }
    c
}

fn tags() -> Vec<String> {
    vec![
        s("vip"),
        s("你好"),
        s("مرحبا"),
        s("👍🏽 happy"),
        s("e\u{301}te\u{301}"),
        s("bad\u{1b}[2Jtag"),
        s("new"),
    ]
}

fn collaborators() -> Vec<String> {
    (0..30)
        .map(|i| format!("agent{i:02}@example.com"))
        .chain([s("bo@example.com"), s("你好@例子.中国")])
        .collect()
}

fn teams() -> Vec<(String, String)> {
    vec![
        (s("t1"), s("Sales")),
        (s("t2"), s("Support 👍🏽")),
        (s("t3"), s("\u{1b}[2Jevil")),
    ]
}

fn field_meta() -> BTreeMap<String, FieldMeta> {
    six_field_contact().custom_fields_metadata.unwrap()
}

fn draw(w: u16, h: u16, render: &dyn Fn(&mut ratatui::Frame, Rect)) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render(f, f.area())).unwrap();
    for cell in t.backend().buffer().content() {
        assert!(!cell.symbol().contains('\u{1b}'), "raw ESC reached a cell at {w}x{h}");
    }
    crate::tui::view::tests::grid::assert_intact(t.backend().buffer(), &format!("at {w}x{h}"));
    t
}

fn snap_form(name: &str, form: &Form) {
    for (w, h) in [(80, 24), (160, 48)] {
        let t = draw(w, h, &|f, a| form.render(f, a, &Theme::plain(), &KEYS));
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), t.backend());
    }
}

fn edit_form() -> Form {
    let mut f = edit_contact_form(&hostile_contact());
    while f.focused_key() != Some(&FieldId::Custom("plan".into())) {
        f.handle_key(&KEYS, k(KeyCode::Tab));
    }
    f
}

fn new_form() -> Form {
    let mut f = new_contact_form(
        &[s("messaging_app"), s("sms")],
        &tags(),
        &collaborators(),
        &teams(),
        &[
            (s("ch-1"), s("Main line (messaging_app, main)")),
            (s("ch-2"), s("Support \u{1b}[2J 👍🏽 (messaging_app)")),
        ],
        &field_meta(),
    );
    typ(&mut f, "+351 900 000 000");
    f.handle_key(&KEYS, k(KeyCode::Tab));
    f.handle_key(&KEYS, k(KeyCode::Tab));
    f.handle_key(&KEYS, k(KeyCode::Enter)); // name is required: shows its error
    f
}

fn all_forms() -> Vec<Form> {
    let c = hostile_contact();
    let mut note = note_form(&c);
    note.handle_key(&KEYS, k(KeyCode::Tab));
    vec![
        edit_form(),
        edit_contact_form(&c),
        note_form(&c),
        tags_form(&c, &tags()),
        assign_form(&c, &collaborators()),
        team_form(&c, &teams()),
        filter_form(&ContactFilter::default(), &[s("messaging_app")], &tags(), &teams()),
        new_form(),
        Form::new("empty", vec![]),
    ]
}

#[test]
fn snapshot_edit_form_with_all_six_field_types() {
    let mut f = edit_form();
    typ(&mut f, "o");
    snap_form("edit", &f);
}

#[test]
fn snapshot_note_editor() {
    let mut f = note_form(&hostile_contact());
    typ(&mut f, " more");
    snap_form("note", &f);
}

#[test]
fn snapshot_tags_multi_select() {
    let mut f = tags_form(&hostile_contact(), &tags());
    f.handle_key(&KEYS, k(KeyCode::Down));
    f.handle_key(&KEYS, k(KeyCode::Char(' ')));
    snap_form("tags", &f);
}

#[test]
fn snapshot_assign_picker_scrolled() {
    let mut f = assign_form(&hostile_contact(), &collaborators());
    for _ in 0..14 {
        f.handle_key(&KEYS, k(KeyCode::Down));
    }
    snap_form("assign", &f);
}

#[test]
fn snapshot_filter_form() {
    let current = ContactFilter {
        source: None,
        tags: vec![s("你好")],
        team_uuid: Some(s("t2")),
        include_field_types: false,
    };
    let mut f = filter_form(&current, &[s("messaging_app")], &tags(), &teams());
    f.handle_key(&KEYS, k(KeyCode::Tab));
    typ(&mut f, "mr");
    snap_form("filter", &f);
}

#[test]
fn snapshot_new_contact_form() {
    snap_form("new_contact", &new_form());
}

#[test]
fn snapshot_fuzzy_picker_with_query() {
    let items: Vec<PickItem> = [
        ("Close conversation", "c"),
        ("Close and next", "C"),
        ("Assign \u{1b}[2J collaborator", "a"),
        ("Tags 你好 مرحبا", "t"),
        ("Note 👍🏽 e\u{301}", "n"),
        ("Custom status", "s"),
    ]
    .iter()
    .map(|(l, d)| PickItem {
        label: s(l),
        detail: s(d),
        key: s(d),
    })
    .collect();
    let mut p = FuzzyPicker::new("Commands", items);
    for c in "clo".chars() {
        p.handle_key(&KEYS, k(KeyCode::Char(c)));
    }
    for (w, h) in [(80, 24), (160, 48)] {
        let t = draw(w, h, &|f, a| p.render(f, a, &Theme::plain(), &KEYS));
        insta::assert_snapshot!(format!("fuzzy_{w}x{h}"), t.backend());
    }
}

#[test]
fn snapshot_form_with_server_error_and_busy() {
    let mut f = tags_form(&hostile_contact(), &tags());
    f.set_error(format!(
        "HTTP 422: tag \"bad\u{1b}[2Jtag\" does not exist in the account; {HOSTILE}"
    ));
    snap_form("server_error", &f);
    f.set_busy(true);
    let t = draw(80, 24, &|fr, a| f.render(fr, a, &Theme::plain(), &KEYS));
    insta::assert_snapshot!("server_error_busy_80x24", t.backend());
}

#[test]
fn every_size_from_20_columns_draws_without_panic() {
    let forms = all_forms();
    let picker = custom_status_picker(&[], None);
    for w in (1..=120).step_by(7).chain([20, 21, 22]) {
        for h in [1, 3, 5, 8, 12, 24, 48] {
            for f in &forms {
                let t = draw(w, h, &|fr, a| f.render(fr, a, &Theme::from_env(), &KEYS));
                if let Some(p) = f.cursor_position(Rect::new(0, 0, w, h), &KEYS) {
                    assert!(p.x < w && p.y < h, "cursor {p:?} outside {w}x{h}");
                }
                drop(t);
            }
            draw(w, h, &|fr, a| picker.render(fr, a, &Theme::from_env(), &KEYS));
        }
    }
}

#[test]
fn the_form_is_centred_and_leaves_the_background_outside_it() {
    let f = tags_form(&hostile_contact(), &tags());
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|fr| {
        fr.render_widget(
            ratatui::widgets::Paragraph::new("x".repeat(80 * 24)).wrap(Default::default()),
            fr.area(),
        );
        f.render(fr, fr.area(), &Theme::plain(), &KEYS);
    })
    .unwrap();
    let buf = t.backend().buffer();
    assert_eq!(buf[(0, 0)].symbol(), "x");
    assert_eq!(buf[(40, 12)].symbol(), " ", "the middle is cleared");
}

#[test]
fn the_filter_form_says_enter_applies_not_saves() {
    let f = filter_form(&ContactFilter::default(), &[s("messaging_app")], &tags(), &teams());
    let t = draw(80, 24, &|fr, a| f.render(fr, a, &Theme::plain(), &KEYS));
    let text = format!("{}", t.backend());
    assert!(text.contains("Enter apply") && !text.contains("save"), "{text}");
    let n = note_form(&hostile_contact());
    let t = draw(80, 24, &|fr, a| n.render(fr, a, &Theme::plain(), &KEYS));
    assert!(format!("{}", t.backend()).contains("C-s save"));
}

/// The hint names the keys the session binds: a rebound row shows as
/// rebound, in a form and in a picker.
#[test]
fn the_hints_name_the_keys_the_config_binds() {
    let bind = |action: &str, key: &str| crate::config::KeyEntry {
        action: action.into(),
        keys: vec![key.into()],
        at: "test".into(),
    };
    let (keys, problems) = crate::tui::keymap::Keymap::resolve(&[
        bind("form.next", "ctrl-o"),
        bind("picker.choose", "ctrl-l"),
        bind("picker.down", "ctrl-j"),
    ]);
    assert!(problems.is_empty(), "{problems:?}");
    let f = assign_form(&hostile_contact(), &[s("ana@x.test"), s("bob@x.test")]);
    let t = draw(80, 24, &|fr, a| f.render(fr, a, &Theme::plain(), &keys));
    let text = format!("{}", t.backend());
    assert!(text.contains("C-o next") && text.contains("C-l save"), "{text}");
    assert!(!text.contains("Tab next"), "{text}");
    let p = FuzzyPicker::new("Run", vec![]);
    let t = draw(80, 24, &|fr, a| p.render(fr, a, &Theme::plain(), &keys));
    let text = format!("{}", t.backend());
    assert!(text.contains("↑C-j move · C-l choose"), "{text}");
}

/// CJK, emoji, ZWJ, VS16, tag-sequence and flag names, as the tester had them.
const WIDE: &[&str] = &[
    "山田太郎 株式会社テスト営業部",
    "👩\u{200d}💻 Dev 👨\u{200d}👩\u{200d}👧\u{200d}👦 family",
    "🇯🇵 Tanaka 🇧🇷 Silva",
    "❤\u{fe0f} Love ☺\u{fe0f} ✔\u{fe0f} ok",
    "🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f} England",
    "한국어 이름 테스트 김철수",
];

#[test]
fn wide_names_keep_every_form_and_picker_border_in_its_column() {
    let wide = |f: &dyn Fn(&str) -> String| WIDE.iter().map(|n| f(n)).collect::<Vec<_>>();
    let mut c = hostile_contact();
    for name in WIDE {
        c.name = s(name);
        c.tags = vec![s(name)];
        let teams: Vec<(String, String)> = WIDE.iter().enumerate().map(|(i, n)| (format!("t{i}"), s(n))).collect();
        let mut forms = vec![
            edit_contact_form(&c),
            note_form(&c),
            tags_form(&c, &wide(&|n| s(n))),
            assign_form(&c, &wide(&|n| format!("{n}@例子.中国"))),
            team_form(&c, &teams),
        ];
        forms[2].handle_key(&KEYS, k(KeyCode::Down));
        for f in &forms {
            // `draw` checks the grid: every box keeps its right border.
            draw(80, 24, &|fr, a| f.render(fr, a, &Theme::plain(), &KEYS));
        }
        let items = WIDE
            .iter()
            .map(|n| PickItem {
                label: s(n),
                detail: s(name),
                key: s("x"),
            })
            .collect();
        let p = FuzzyPicker::new(*name, items);
        draw(80, 24, &|fr, a| p.render(fr, a, &Theme::plain(), &KEYS));
    }
    let t = draw(80, 24, &|fr, a| {
        tags_form(&c, &wide(&|n| s(n))).render(fr, a, &Theme::plain(), &KEYS)
    });
    insta::assert_snapshot!("wide_names_tags_picker_80x24", t.backend());
}
