//! The details, bot and my-status panes as drawn: funnel names, custom
//! fields, the bot's version and whole lines from 100 to 160 columns, and
//! the "more" marker of a cut pane.

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::tui::details::{DetailsEffect, DetailsMsg};
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::model::{Model, Pane};
use crate::tui::msg::Msg;
use crate::tui::update::update;
use crate::tui::view::tests::{draw, rich};

fn details_line(m: &Model, label: &str) -> String {
    let t = draw(m);
    let text = format!("{}", t.backend());
    text.lines()
        .find(|l| l.contains(&format!("{label:<9}")))
        .unwrap_or_else(|| panic!("no {label} line in\n{text}"))
        .to_string()
}

#[test]
fn details_name_the_funnel_and_shorten_an_unknown_one() {
    let mut m = rich(160, 48);
    let line = details_line(&m, "funnel");
    assert!(line.contains("🎯") && line.contains("Sales pipeline"), "{line}");
    let unknown = "3f2a9c1b-7d4e-4a51-9b6e-0c8d2f1e5a77";
    m.details.full.as_mut().unwrap().funnel_id = Some(unknown.into());
    let line = details_line(&m, "funnel");
    assert!(line.contains("3f2a9c1b") && !line.contains("7d4e"), "{line}");
}

/// The text inside a bordered panel, one string per non-empty row.
fn panel_text(t: &Terminal<TestBackend>, r: ratatui::layout::Rect) -> Vec<String> {
    let buf = t.backend().buffer();
    (r.y + 1..r.bottom().saturating_sub(1))
        .map(|y| {
            (r.x + 1..r.right().saturating_sub(1))
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn the_bot_panel_says_when_a_newer_version_exists() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut m = rich(w, h);
        m.focus = Pane::Details;
        let mut b = bot(false);
        b.version = Some(2);
        b.latest_bot_version = Some(false);
        m.details.bot.bot = Some(b);
        let t = draw(&m);
        let text = panel_text(&t, m.areas().bot.unwrap()).join(" ");
        assert!(text.contains("v2 outdated"), "at {w}x{h}: {text}");
        assert!(text.contains("stopped"), "at {w}x{h}: {text}");
    }
}

#[test]
fn bot_and_my_status_panels_show_whole_lines_from_100_to_160_columns() {
    use crate::api::BotStatus;
    for w in [100, 120, 140, 160] {
        let mut m = rich(w, 48);
        let mut b = bot(true);
        b.name = "Frontdesk Helper 🤖".into();
        b.conversation_started_at = Some(now() - chrono::Duration::hours(1));
        m.details.bot.bot = Some(b);
        m.details.me.custom_status = None;
        let t = draw(&m);
        let a = m.areas();
        // The version goes beside the name where it fits (from 140), else
        // beside the key hint. (The emoji's second cell reads as a space.)
        let want: &[&str] = if w >= 140 {
            &[
                "Frontdesk Helper 🤖  · v3 latest",
                "● running since 14:30",
                "b stops it",
            ]
        } else {
            &["Frontdesk Helper 🤖", "● running since 14:30", "b stops it · v3 latest"]
        };
        assert_eq!(panel_text(&t, a.bot.unwrap()), want, "at {w} columns");
        assert_eq!(
            panel_text(&t, a.availability.unwrap()),
            ["● available", "no custom status", "v toggles · s status"],
            "at {w} columns"
        );
        // Stopping: the answer to bot_end carries neither name nor status.
        let fx = update(&mut m, key('b'));
        let id = fx
            .iter()
            .find_map(|e| match e {
                Effect::Details(DetailsEffect::SetBot { id, .. }) => Some(*id),
                _ => None,
            })
            .unwrap();
        let uuid = m.details.bot.contact.clone().unwrap();
        let mut ended = bot(false);
        ended.name = String::new();
        ended.status = BotStatus::Other(String::new());
        update(
            &mut m,
            Msg::Details(DetailsMsg::BotSet {
                id,
                uuid,
                result: Ok(ended),
            }),
        );
        let t = draw(&m);
        let want: &[&str] = if w >= 140 {
            &["Frontdesk Helper 🤖  · v3 latest", "○ stopped", "b starts it"]
        } else {
            &["Frontdesk Helper 🤖", "○ stopped · v3 latest", "b starts it"]
        };
        assert_eq!(panel_text(&t, m.areas().bot.unwrap()), want, "at {w} columns");
    }
}

#[test]
fn an_empty_custom_field_shows_a_dash() {
    let mut m = rich(160, 48);
    let c = m.details.full.as_mut().unwrap();
    c.custom_fields
        .insert("birthday".into(), crate::api::FieldValue::Text(String::new()));
    let line = details_line(&m, " birthday");
    assert!(line.contains("birthday: —"), "{line}");
}

#[test]
fn a_cut_details_pane_says_there_is_more_until_scrolled_down() {
    let mut m = rich(80, 24);
    m.focus = Pane::Details;
    let bottom = |m: &Model| {
        let t = draw(m);
        let r = m.areas().details.unwrap();
        format!("{}", t.backend())
            .lines()
            .nth(r.bottom() as usize - 1)
            .unwrap()
            .to_string()
    };
    assert!(bottom(&m).contains("more ↓"), "{}", bottom(&m));
    for _ in 0..30 {
        update(&mut m, key('j'));
    }
    assert!(!bottom(&m).contains("more ↓"), "{}", bottom(&m));
    let m = rich(160, 48);
    assert!(!bottom(&m).contains("more ↓"), "everything fits at 160x48");
}

#[test]
fn a_colleagues_close_and_take_show_in_the_details_without_r() {
    let mut m = rich(160, 48);
    assert!(details_line(&m, "state").contains("open"));
    let mut c = m.details.full.clone().unwrap();
    c.custom_fields_metadata = None;
    c.closed_at = Some(now());
    c.assigned_user = Some("alex@example.test".into());
    c.activity_at = Some(now());
    update(
        &mut m,
        Msg::Index(crate::tui::msg::index::IndexMsg::Changed(crate::index::Changes {
            upserted: vec![c],
            removed: Vec::new(),
        })),
    );
    let line = details_line(&m, "state");
    assert!(line.contains("closed"), "{line}");
    assert!(
        m.details.full.as_ref().unwrap().custom_fields_metadata.is_some(),
        "field types kept"
    );
}
