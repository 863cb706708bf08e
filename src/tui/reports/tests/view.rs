//! The Reports screen's frames: readable at 80x24 and 160x48, without
//! colour, and with hostile group names made inert.

use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::{now, report};
use crate::report::GroupBy;
use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::theme::Theme;

fn screen(w: u16, h: u16, days: i64, by: Option<GroupBy>, group: usize) -> Model {
    let mut m = model_with(5, w, h);
    m.now = now();
    m.slices.reports.open = true;
    m.slices.reports.span = crate::tui::reports::SPANS.iter().position(|d| *d == days).unwrap();
    m.slices.reports.by = by;
    m.slices.reports.group = group;
    m.slices.reports.report = Some(report(days, by));
    m
}

fn draw(m: &Model) -> String {
    let mut t = Terminal::new(TestBackend::new(m.width, m.height)).unwrap();
    t.draw(|f| crate::tui::view::view(m, f, &Theme::plain())).unwrap();
    let buf = t.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

#[test]
fn a_week_by_agent_at_80x24() {
    let s = draw(&screen(80, 24, 7, Some(GroupBy::Agent), 1));
    assert!(s.contains("Reports · last 7 days · by agent"), "{s}");
    assert!(s.contains("Waiting now"), "{s}");
    assert!(s.contains("First response"), "{s}");
    assert!(s.contains("ann@example.com"), "{s}");
    assert_snapshot!(s);
}

#[test]
fn thirty_days_by_tag_at_160x48() {
    let s = draw(&screen(160, 48, 30, Some(GroupBy::Tag), 0));
    assert!(!s.contains('\u{1b}'), "a tag's escape reached the screen");
    assert!(s.contains("vip"), "{s}");
    assert_snapshot!(s);
}

#[test]
fn ninety_days_at_80_columns_says_which_days_it_shows() {
    let s = draw(&screen(80, 24, 90, None, 0));
    assert!(
        s.contains(", last "),
        "the bars cannot hold 90 days at 80 columns and say so:\n{s}"
    );
}

#[test]
fn a_toast_shows_below_the_screen_not_over_its_keys() {
    let mut m = screen(80, 24, 7, None, 0);
    let now = m.now;
    m.status
        .push(crate::tui::model::ToastKind::Success, "closed (Ana Souza)", now);
    let s = draw(&m);
    let lines: Vec<&str> = s.lines().collect();
    assert!(lines[21].contains("close"), "the keys line is whole:\n{s}");
    assert!(
        lines[22].contains("closed (Ana Souza)"),
        "the toast has its own line:\n{s}"
    );
    assert!(s.contains(" Reports · last 7 days "), "{s}");
}
