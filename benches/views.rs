//! Issue 22's big configs: 5,000 views in the config file. Loading them
//! (parse, validate, the TUI's Views model) under 0.5 s, and switching view
//! with 10,000 contacts loaded under 50 ms.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use frontdesk::config::{GlobalArgs, load_from};
use frontdesk::tui::fixtures::{contacts, key, model_with};
use frontdesk::tui::inbox::views::Views;
use frontdesk::tui::model::Model;
use frontdesk::tui::msg::Msg;
use frontdesk::tui::theme::Theme;
use frontdesk::tui::update::update;
use frontdesk::tui::view::view;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const VIEWS: usize = 5_000;
const CONTACTS: usize = 10_000;

/// A config file with `n` views of assorted rules.
fn config_text(n: usize) -> String {
    let mut text = String::from("user_email = \"agent@example.test\"\n\n");
    for i in 0..n {
        text.push_str(&format!("[[views]]\nname = \"View number {i}\"\nshort = \"V{i}\"\n"));
        match i % 5 {
            0 => text.push_str("state = \"open\"\ntags_any = [\"vip\", \"urgent\"]\n"),
            1 => text.push_str("assignee = \"me\"\nwaiting = true\n"),
            2 => text.push_str("source = \"instagram\"\nolder_than = \"7d\"\n"),
            3 => text.push_str(&format!("text = \"Contact {:03}\"\n", i % 1000)),
            _ => text.push_str("assignee = \"nobody\"\nstate = \"closed\"\n"),
        }
        text.push('\n');
    }
    text
}

fn load(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("config.toml");
    std::fs::write(&path, config_text(VIEWS)).expect("write config");
    let args = GlobalArgs {
        config: Some(path),
        ..Default::default()
    };
    c.bench_function("load_5000_views", |b| {
        b.iter(|| {
            let s = load_from(black_box(&args), &|_| None, None).expect("loads");
            assert_eq!(s.views.len(), VIEWS, "{:?}", s.warnings.first());
            Views::new(s.views, s.user_email)
        })
    });
}

/// 10,000 contacts loaded and the 5,000 views of the config file.
fn model() -> Model {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("config.toml");
    std::fs::write(&path, config_text(VIEWS)).expect("write config");
    let args = GlobalArgs {
        config: Some(path),
        ..Default::default()
    };
    let s = load_from(&args, &|_| None, None).expect("loads");
    let mut m = model_with(20, 160, 48);
    m.list.store.set(contacts(0..CONTACTS));
    m.views = Views::new(s.views, s.user_email);
    // Among the agent's own views, far down the strip.
    m.views.current = 2_500;
    update(&mut m, Msg::Tick(chrono::Utc::now()));
    m
}

fn switch(c: &mut Criterion) {
    let theme = Theme::plain();
    let mut m = model();
    let mut terminal = Terminal::new(TestBackend::new(160, 48)).expect("test backend");
    let mut forward = true;
    c.bench_function("view_switch_5000_views_10000_contacts", |b| {
        b.iter(|| {
            let fx = update(&mut m, key(if forward { ']' } else { '[' }));
            forward = !forward;
            fx
        })
    });
    c.bench_function("view_switch_and_frame_5000_views_10000_contacts", |b| {
        b.iter(|| {
            let fx = update(&mut m, key(if forward { ']' } else { '[' }));
            forward = !forward;
            terminal.draw(|f| view(black_box(&m), f, &theme)).expect("draw");
            fx
        })
    });
    let uuid = m.list.store.get(500).expect("row").uuid.to_string();
    let mut closed = false;
    c.bench_function("view_recount_after_a_change_5000_views_10000_contacts", |b| {
        b.iter(|| {
            closed = !closed;
            let at = closed.then(chrono::Utc::now);
            m.list.store.update(&uuid, |r| r.closed_at = at);
            update(&mut m, Msg::Tick(chrono::Utc::now()))
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_millis(500)).sample_size(10);
    targets = load, switch
}
criterion_main!(benches);
