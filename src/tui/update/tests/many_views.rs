//! A config with thousands of views: the strip keeps the current tab on
//! screen, and every tab it shows carries its true count, through
//! switching, a change in the account and a resize.

use super::*;
use crate::triage::{View, ViewFilter};
use crate::tui::inbox::views::{RowFacts, Views};

const VIEWS: usize = 5_000;

/// `n` views over the fixture contacts' names (`Contact 00042`): a third
/// match a hundred contacts, the others one or none.
fn many(n: usize) -> Vec<View> {
    (0..n)
        .map(|i| {
            let mut v = View::new(
                &format!("View number {i}"),
                ViewFilter {
                    text: Some(if i % 3 == 0 {
                        format!("Contact 00{}", (i / 3) % 10)
                    } else {
                        format!("Contact {:05}", i % 900)
                    }),
                    ..Default::default()
                },
            );
            v.short = format!("V{i}");
            v
        })
        .collect()
}

fn model(contacts: usize, w: u16) -> Model {
    let mut m = indexed_model(contacts, w, 40);
    m.views = Views::new(many(VIEWS), Some("agent@example.test".into()));
    update(&mut m, Msg::Tick(now()));
    m
}

/// What view `i` holds among the loaded contacts.
fn truth(m: &Model, i: usize) -> usize {
    let v = &m.views.all[i];
    m.list
        .store
        .iter()
        .filter(|r| v.filter.matches(&RowFacts::new(r), m.views.me.as_deref(), m.now))
        .count()
}

/// The strip's text, drawn at the list pane's width.
fn strip(m: &Model) -> String {
    let w = m.areas().list.map_or(m.width, |r| r.width).saturating_sub(2) as usize;
    let line = crate::tui::inbox::tabs::strip(&m.views, w, &crate::tui::theme::Theme::mono());
    line.spans.iter().map(|s| s.content.to_string()).collect()
}

/// The views on the strip now, by the short names the fixture gives them.
fn on_strip(m: &Model) -> Vec<usize> {
    let text = strip(m);
    (0..m.views.all.len())
        .filter(|&i| {
            let v = &m.views.all[i];
            let c = m.views.counts[i];
            let count = if c.at_least {
                format!("≥{}", crate::triage::abbreviate_count(c.n))
            } else {
                crate::triage::abbreviate_count(c.n)
            };
            let key = if i < 9 { format!("{} ", i + 1) } else { String::new() };
            [&v.name, &v.short].iter().any(|name| {
                let label = format!("{key}{name} {count}");
                text.contains(&format!(" {label} ")) || text.contains(&format!("[{label}]"))
            })
        })
        .collect()
}

fn assert_counts_true(m: &Model) {
    let text = strip(m);
    let current = m.views.current;
    assert!(text.contains('['), "{text}");
    let shown = on_strip(m);
    assert!(shown.contains(&current), "view {current} is not on the strip: {text}");
    for i in shown.iter().copied().chain(0..5) {
        assert_eq!(m.views.counts[i].n, truth(m, i), "view {i} on {text}");
    }
}

#[test]
fn among_5000_views_the_strip_shows_the_current_tab_with_true_counts() {
    let mut m = model(800, 120);
    assert_counts_true(&m);
    // `[` from the first built-in goes round to the last of the 5,000.
    m.views.current = 0;
    update(&mut m, key('['));
    assert_eq!(m.views.current, VIEWS + 4);
    assert!(strip(&m).starts_with('‹'), "{}", strip(&m));
    assert_counts_true(&m);
    for _ in 0..12 {
        update(&mut m, key('['));
        assert_counts_true(&m);
    }
    // Deep in the middle.
    for _ in 0..3 {
        update(&mut m, key(']'));
    }
    m.views.current = 2_500;
    update(&mut m, key(']'));
    assert_eq!(m.views.current, 2_501);
    let text = strip(&m);
    assert!(text.starts_with('‹') && text.ends_with('›'), "{text}");
    assert_counts_true(&m);
    // The rows are the view's.
    assert_eq!(m.list.visible_len(), truth(&m, 2_501));
}

#[test]
fn a_change_in_the_account_or_a_resize_keeps_the_shown_counts_true() {
    use crate::index::Changes;
    let mut m = model(800, 120);
    m.views.current = 3_000;
    update(&mut m, key(']'));
    // A contact of the view leaves it.
    let target = m.views.current;
    let before = m.views.counts[target].n;
    assert!(before > 0);
    let uuid = m.list.row(0).unwrap().uuid.to_string();
    let i = (0..800).find(|&i| contact(i).uuid == uuid).unwrap();
    let mut c = contact(i);
    c.name = "renamed".into();
    update(
        &mut m,
        Msg::Index(crate::tui::msg::index::IndexMsg::Changed(Changes {
            upserted: vec![c],
            removed: vec![],
        })),
    );
    assert_eq!(m.views.counts[target].n, before - 1);
    assert_counts_true(&m);
    // Wider: more tabs on the strip, each counted.
    update(&mut m, Msg::Resize(240, 50));
    assert_counts_true(&m);
    update(&mut m, Msg::Resize(60, 30));
    assert_counts_true(&m);
}
