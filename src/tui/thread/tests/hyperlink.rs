//! Links in the thread as OSC 8 hyperlinks: a link's cells carry the
//! sequence with its URL, a URL with a control character carries none,
//! and the frame the terminal gets (through ratatui's diff) keeps every
//! border where it was.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::{Buffer, CellDiffOption};
use serde_json::json;

use super::rich::{files_and_places, thread_with};
use crate::api::Message;
use crate::tui::fixtures::now;
use crate::tui::model::Model;
use crate::tui::theme::Theme;
use crate::tui::thread::hyperlink::{in_text, target};

fn message(minutes_ago: i64, v: serde_json::Value) -> Message {
    let mut m: Message = serde_json::from_value(v).unwrap();
    m.created_at = Some(now() - chrono::Duration::minutes(minutes_ago));
    m.from = "+5511900000001".into();
    m
}

/// What the terminal was sent: the backend's cells after ratatui's diff,
/// two frames in a row (the second diffed against the first).
fn frames(m: &Model) -> (Buffer, Buffer) {
    let mut t = Terminal::new(TestBackend::new(m.width, m.height)).unwrap();
    t.draw(|f| crate::tui::view::view(m, f, &Theme::plain())).unwrap();
    let first = t.backend().buffer().clone();
    t.draw(|f| crate::tui::view::view(m, f, &Theme::plain())).unwrap();
    (first, t.backend().buffer().clone())
}

fn osc8(url: &str) -> String {
    format!("\u{1b}]8;;{url}\u{1b}\\")
}

/// The rows as a terminal shows them: every OSC 8 sequence taken out,
/// and a cell the one before covers (its forced width) left out.
fn text(buf: &Buffer) -> Vec<String> {
    (0..buf.area.height)
        .map(|y| {
            let mut row = String::new();
            let mut x = 0;
            while x < buf.area.width {
                let c = &buf[(x, y)];
                row.push_str(c.symbol());
                x += match c.diff_option {
                    CellDiffOption::ForcedWidth(w) => w.get(),
                    _ => 1,
                };
            }
            let mut out = String::new();
            let mut rest = row.as_str();
            while let Some(at) = rest.find("\u{1b}]8;;") {
                out.push_str(&rest[..at]);
                let after = &rest[at..];
                let end = after.find("\u{1b}\\").map_or(after.len(), |e| e + 2);
                rest = &after[end..];
            }
            out.push_str(rest);
            out
        })
        .collect()
}

fn cells_with(buf: &Buffer, needle: &str) -> usize {
    buf.content().iter().filter(|c| c.symbol().contains(needle)).count()
}

fn linked(newest_first: Vec<Message>, on: bool) -> Model {
    let mut m = thread_with(newest_first, 80, 24);
    m.thread.hyperlinks = on;
    m
}

#[test]
fn a_link_cell_carries_osc8_with_its_url_and_the_border_holds() {
    let long = format!("https://example.com/{}", "a".repeat(100));
    let mut newest_first = vec![message(
        0,
        json!({ "text": format!("see {long}."), "status": "received" }),
    )];
    newest_first.extend(files_and_places());
    let (plain, _) = frames(&linked(newest_first.clone(), false));
    let (first, second) = frames(&linked(newest_first, true));
    for url in [
        "https://files.example.com/u/1/manual.pdf",
        "https://files.example.com/u/2/photo.jpg",
        "https://www.google.com/maps?q=-23.6054,-46.6373",
    ] {
        assert!(cells_with(&first, &osc8(url)) > 0, "{url} is a link");
    }
    // A link wrapped over lines (here three: the word wrap keeps "see"
    // with the URL's start) is a link on each, to the whole URL; the full
    // stop after it is not part of it.
    let rows_of_long: std::collections::BTreeSet<u16> = (0..first.area.height)
        .filter(|&y| (0..first.area.width).any(|x| first[(x, y)].symbol().contains(&osc8(&long))))
        .collect();
    assert_eq!(rows_of_long.len(), 3, "{rows_of_long:?}");
    assert_eq!(cells_with(&first, &osc8(&format!("{long}."))), 0);
    // Two columns a cell: ratatui's diff skips the cell after each.
    assert!(
        first
            .content()
            .iter()
            .filter(|c| c.symbol().starts_with("\u{1b}]8;;"))
            .all(|c| c.symbol().ends_with("\u{1b}]8;;\u{1b}\\"))
    );
    // What the terminal shows is the plain frame: same text, every border
    // cell where it was, the first frame and the next.
    assert_eq!(text(&first), text(&plain));
    assert_eq!(text(&second), text(&plain));
    for y in 0..plain.area.height {
        for x in [0, plain.area.width - 1] {
            assert_eq!(first[(x, y)].symbol(), plain[(x, y)].symbol(), "({x}, {y})");
            assert_eq!(second[(x, y)].symbol(), plain[(x, y)].symbol(), "({x}, {y})");
        }
    }
    assert!(text(&first).iter().filter(|l| l.ends_with('│')).count() >= 20);
}

#[test]
fn a_url_with_a_control_character_is_text_not_a_link() {
    let newest_first = vec![
        message(
            1,
            json!({ "text": "x", "status": "received",
            "attachments": ["https://evil.example/a\u{1b}]8;;https://x\u{1b}\\b.pdf", "https://evil.example/bell\u{7}.pdf"] }),
        ),
        message(
            2,
            json!({ "text": "go https://evil.example/\u{7}y or mailto:a@b.example\u{9b}", "status": "received" }),
        ),
    ];
    let (first, _) = frames(&linked(newest_first, true));
    for c in first.content() {
        assert!(
            !c.symbol().contains('\u{1b}') && !c.symbol().contains('\u{7}') && !c.symbol().contains('\u{9b}'),
            "{:?}",
            c.symbol()
        );
    }
    let s = text(&first).join("\n");
    assert!(s.contains("evil.example"), "the URL still shows as text:\n{s}");
}

#[test]
fn only_printable_urls_of_known_schemes_are_links() {
    for ok in [
        "https://a.example/x?y=1#z",
        "HTTP://a.example",
        "mailto:ana@example.com",
        "tel:+15550100",
        "geo:-23.6,-46.6",
    ] {
        assert_eq!(target(ok), Some(ok));
    }
    for no in [
        "javascript:alert(1)",
        "file:///etc/passwd",
        "https://",
        "https://a.example/\u{1b}[2J",
        "https://a.example/\u{7}",
        "https://a.example/\u{7f}",
        "https://a.example/\u{9c}",
        "https://a.example/a b",
        "https://exämple.com",
    ] {
        assert_eq!(target(no), None, "{no:?}");
    }
    assert_eq!(
        in_text("(see https://a.example/x), or mail mailto:b@c.example. Call tel:+1555!"),
        vec!["https://a.example/x", "mailto:b@c.example", "tel:+1555"]
    );
    assert_eq!(
        in_text("https://en.wikipedia.org/wiki/Foo_(bar)"),
        vec!["https://en.wikipedia.org/wiki/Foo_(bar)"]
    );
}

#[test]
fn links_are_off_unless_the_setting_turns_them_on() {
    let (first, _) = frames(&linked(files_and_places(), false));
    assert_eq!(cells_with(&first, "\u{1b}"), 0);
}

#[test]
fn the_setting_stays_when_another_thread_opens() {
    let mut m = linked(files_and_places(), true);
    let mut ids: crate::tui::shared::ReqId = 0;
    let mut out = crate::tui::shared::Out::new(&mut ids);
    crate::tui::thread::open(&mut m.thread, &mut out, &crate::tui::fixtures::contact(3).uuid);
    assert!(m.thread.hyperlinks, "the session's setting, not the thread's");
}
