//! The contact list at 100,000 contacts: a key costs what is on screen, a
//! search keystroke does not wait for the matcher, and a page is cheap to
//! apply. Issue 10's targets: `k` at 100,000 within 1.2x of `k` at 100.

use frontdesk::tui::inbox::InboxEffect;
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
            Effect::Inbox(InboxEffect::SearchContacts(j)) => Some(j),
            _ => None,
        })
        .expect("a search job");
    c.bench_function("search_match_all_100000", |b| {
        b.iter_batched(|| job.clone(), |j| j.run(), BatchSize::SmallInput)
    });
}

/// 100,000 contacts behind a complete index, every last message known
/// (a third of them the customer's), on the Open view.
fn triaged() -> Model {
    use frontdesk::index::{Preview, Who};
    use frontdesk::tui::inbox::views::Views;
    let mut m = loaded(100_000);
    m.sync.status = Some(frontdesk::tui::msg::index::SyncStatus {
        complete: true,
        ..Default::default()
    });
    let previews = contacts(0..100_000)
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let who = [Who::Customer, Who::Agent, Who::Note][i % 3];
            let p = Preview {
                who: Some(who),
                text: "where is my order?".into(),
                at: c.activity_at,
                activity: c.last_activity(),
                wait: Default::default(),
            };
            (c.uuid, p)
        })
        .collect();
    update(
        &mut m,
        Msg::Index(frontdesk::tui::msg::index::IndexMsg::Previews(previews)),
    );
    m.views = Views::new(Vec::new(), Some("agent@example.test".into()));
    m.views.current = m.views.all.iter().position(|v| v.name == "Open").expect("Open");
    update(&mut m, Msg::Tick(chrono::Utc::now()));
    m
}

/// Issue 9's target: switching views and recounting at 100,000 contacts
/// under 16 ms.
fn views(c: &mut Criterion) {
    let theme = Theme::plain();
    let mut m = triaged();
    let mut terminal = Terminal::new(TestBackend::new(160, 48)).expect("test backend");
    let mut forward = true;
    // Open ⇄ Waiting (the longest wait first: a sort) with a frame.
    c.bench_function("view_switch_and_frame_100000", |b| {
        b.iter(|| {
            let fx = update(&mut m, key(if forward { '[' } else { ']' }));
            forward = !forward;
            terminal.draw(|f| view(black_box(&m), f, &theme)).expect("draw");
            fx
        })
    });
    // Another agent closes or reopens one conversation: every count and
    // the view's rows again.
    let uuid = m.list.store.get(500).expect("row").uuid.to_string();
    let mut closed = false;
    c.bench_function("view_recount_after_a_change_100000", |b| {
        b.iter(|| {
            closed = !closed;
            let at = closed.then(chrono::Utc::now);
            m.list.store.update(&uuid, |r| r.closed_at = at);
            update(&mut m, Msg::Tick(chrono::Utc::now()))
        })
    });
    let mut up = true;
    c.bench_function("key_k_update_and_frame_in_a_view_100000", |b| {
        b.iter(|| {
            let fx = update(&mut m, key(if up { 'k' } else { 'j' }));
            up = !up;
            terminal.draw(|f| view(black_box(&m), f, &theme)).expect("draw");
            fx
        })
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
    targets = keys, search, pages, views
}
criterion_main!(benches);
