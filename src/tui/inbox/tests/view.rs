//! The tab strip of views at both sizes: counts exact and "at least", the
//! current view bracketed, Mine greyed without an email, an edited view
//! starred, views cut off with ‹ ›, and a row kept greyed after the agent
//! closed it in Mine.

use insta::assert_snapshot;

use crate::triage::{View, ViewFilter};
use crate::tui::fixtures::*;
use crate::tui::inbox::views::Views;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::update::update;
use crate::tui::view::tests::draw;

fn strip_of(m: &Model) -> String {
    let t = draw(m);
    let buf = t.backend().buffer();
    let list = m.areas().list.unwrap();
    (list.x + 1..list.x + list.width - 1)
        .map(|x| buf[(x, list.y + 1)].symbol().to_string())
        .collect::<String>()
        .trim_end()
        .to_string()
}

fn triage(n: usize, w: u16, h: u16, custom: Vec<View>) -> Model {
    let mut m = indexed_model(n, w, h);
    m.views = Views::new(custom, Some("agent@example.test".into()));
    update(&mut m, Msg::Tick(now()));
    m
}

fn custom(n: usize) -> Vec<View> {
    (0..n)
        .map(|i| {
            View::new(
                &format!("Team view {i}"),
                ViewFilter {
                    text: Some(format!("Contact 000{i}")),
                    ..Default::default()
                },
            )
        })
        .collect()
}

#[test]
fn the_strip_at_both_sizes_with_a_kept_row() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut m = triage(30, w, h, custom(2));
        // Close the first of Mine: it stays, greyed, under the cursor.
        update(&mut m, key('c'));
        assert_snapshot!(format!("views_mine_closed_{w}x{h}"), draw(&m).backend());
    }
}

#[test]
fn counts_are_at_least_while_a_walk_runs_and_exact_after() {
    let mut m = triage(30, 80, 24, Vec::new());
    assert_eq!(
        strip_of(&m),
        "[1 Mine 12] 2 Unassigned 12  3 Waiting ≥0  4 Open 24  5 All 30"
    );
    m.sync.status.as_mut().unwrap().walking = Some((30, Some(100)));
    update(&mut m, Msg::Tick(now()));
    assert_eq!(
        strip_of(&m),
        "[1 Mine ≥12] 2 Unassigned ≥12  3 Waiting ≥0  4 Open ≥24  5 All ≥30"
    );
}

#[test]
fn big_counts_are_abbreviated_to_fit_80_columns() {
    let mut m = triage(30, 80, 24, custom(1));
    m.views.counts = vec![
        crate::tui::inbox::views::Count {
            n: 1234,
            at_least: false,
        },
        crate::tui::inbox::views::Count {
            n: 12_400,
            at_least: true,
        },
        crate::tui::inbox::views::Count {
            n: 999,
            at_least: false,
        },
        crate::tui::inbox::views::Count {
            n: 56_789,
            at_least: false,
        },
        crate::tui::inbox::views::Count {
            n: 100_000,
            at_least: false,
        },
        crate::tui::inbox::views::Count { n: 7, at_least: false },
    ];
    let strip = crate::tui::inbox::tabs::strip(&m.views, 78, &crate::tui::theme::Theme::mono());
    let text: String = strip.spans.iter().map(|s| s.content.to_string()).collect();
    assert_eq!(
        text,
        "[1 Mine 1.2k] 2 Unassign ≥12.4k  3 Waiting 999  4 Open 56.8k  5 All 100k ›"
    );
    assert!(crate::text::width(&text) <= 78);
}

#[test]
fn the_current_view_is_always_on_the_strip() {
    let mut m = triage(30, 80, 24, custom(6));
    update(&mut m, key('['));
    let strip = strip_of(&m);
    assert!(strip.starts_with('‹'), "{strip}");
    assert!(strip.contains("[Team vie 0]") || strip.contains("[Team vie"), "{strip}");
    assert!(crate::text::width(&strip) <= 78);
}

#[test]
fn mine_without_an_email_is_greyed_and_its_list_says_how_to_set_it() {
    let mut m = indexed_model(10, 80, 24);
    m.views = Views::new(Vec::new(), None);
    m.views.current = 0;
    update(&mut m, Msg::Tick(now()));
    let strip = strip_of(&m);
    assert!(strip.starts_with("[1 Mine –]"), "{strip}");
    let screen = format!("{}", draw(&m).backend());
    assert!(screen.contains("set user_email in the config file"), "{screen}");
}
