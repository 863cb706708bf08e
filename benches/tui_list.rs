//! The contact list at 100,000 contacts: a key costs what is on screen, a
//! search keystroke does not wait for the matcher, and a page is cheap to
//! apply. Issue 10's targets: `k` at 100,000 within 1.2x of `k` at 100.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use frontdesk::tui::effect::Effect;
use frontdesk::tui::fixtures::{contacts, model_with, page};
use frontdesk::tui::model::Model;
use frontdesk::tui::msg::Msg;
use frontdesk::tui::theme::Theme;
use frontdesk::tui::update::{apply_page, update};
use frontdesk::tui::view::view;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn key(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

fn loaded(n: usize) -> Model {
    let mut m = model_with(20, 160, 48);
    m.list.store.set(contacts(0..n));
    m.list.view.selected = n / 2;
    let h = m.list_height();
    m.list.clamp(h);
    m
}

fn keys(c: &mut Criterion) {
    let theme = Theme::plain();
    for n in [100, 100_000] {
        let mut m = loaded(n);
        let mut terminal = Terminal::new(TestBackend::new(160, 48)).expect("test backend");
        let mut up = true;
        c.bench_function(&format!("key_k_update_and_frame_160x48_{n}_contacts"), |b| {
            b.iter(|| {
                // k then j, so the selection stays mid-list.
                let fx = update(&mut m, key(if up { 'k' } else { 'j' }));
                up = !up;
                terminal.draw(|f| view(black_box(&m), f, &theme)).expect("draw");
                fx
            })
        });
    }
}

fn search(c: &mut Criterion) {
    let mut m = loaded(100_000);
    update(&mut m, key('/'));
    // The UI thread's part of a keystroke: the query changes, a job is
    // handed to the blocking pool.
    c.bench_function("search_keystroke_update_100000", |b| {
        b.iter(|| {
            let fx = update(&mut m, key('a'));
            update(&mut m, Msg::Key(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE)));
            fx
        })
    });
    // The matcher's part, off the UI thread: a first letter over all rows.
    let job = update(&mut m, key('a'))
        .into_iter()
        .find_map(|e| match e {
            Effect::SearchContacts(j) => Some(j),
            _ => None,
        })
        .expect("a search job");
    c.bench_function("search_match_all_100000", |b| {
        b.iter_batched(|| job.clone(), |j| j.run(), BatchSize::SmallInput)
    });
}

fn pages(c: &mut Criterion) {
    for n in [100, 100_000] {
        let mut m = loaded(n);
        let mut next = n;
        c.bench_function(&format!("apply_page_20_onto_{n}"), |b| {
            b.iter_batched(
                || {
                    next += 20;
                    page(contacts(next..next + 20), Some("c"))
                },
                |p| apply_page(&mut m.list, p),
                BatchSize::SmallInput,
            )
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500)).sample_size(20);
    targets = keys, search, pages
}
criterion_main!(benches);
