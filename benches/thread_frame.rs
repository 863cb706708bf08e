//! A frame of the thread must cost what is on screen, not what is loaded:
//! one frame at 160x48 with 20 and with 20,000 messages (target: ratio
//! ≤ 1.5), and one step of `k` plus its frame at 20,000.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use frontdesk::tui::fixtures::{messages, model_with, page};
use frontdesk::tui::model::Model;
use frontdesk::tui::msg::{Msg, ThreadFetch};
use frontdesk::tui::theme::Theme;
use frontdesk::tui::update::update;
use frontdesk::tui::view::view;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn key(c: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(c, KeyModifiers::NONE))
}

/// The first contact's thread with all `n` messages loaded, focused.
fn thread(n: usize) -> Model {
    let mut m = model_with(20, 160, 48);
    let (Some(contact), Some(id)) = (m.thread.contact.clone(), m.thread.loading) else {
        panic!("the fixture opens the first thread");
    };
    update(
        &mut m,
        Msg::Thread(frontdesk::tui::thread::ThreadMsg::Loaded {
            id,
            contact,
            fetch: ThreadFetch::Initial,
            result: Ok(page(messages(n), None)),
        }),
    );
    update(&mut m, key(KeyCode::Tab));
    m
}

fn frame(c: &mut Criterion) {
    let theme = Theme::plain();
    for n in [20, 20_000] {
        let m = thread(n);
        let mut terminal = Terminal::new(TestBackend::new(160, 48)).expect("test backend");
        terminal.draw(|f| view(&m, f, &theme)).expect("draw");
        c.bench_function(&format!("thread_frame_160x48_{n}_messages"), |b| {
            b.iter(|| {
                terminal.draw(|f| view(black_box(&m), f, &theme)).expect("draw");
            })
        });
    }
    let mut m = thread(20_000);
    let mut terminal = Terminal::new(TestBackend::new(160, 48)).expect("test backend");
    let mut up = true;
    c.bench_function("thread_k_and_frame_20000_messages", |b| {
        b.iter(|| {
            // Up and down in turn: the cursor stays near the newest.
            up = !up;
            let k = if up { KeyCode::Char('k') } else { KeyCode::Char('j') };
            update(&mut m, key(k));
            terminal.draw(|f| view(black_box(&m), f, &theme)).expect("draw");
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500)).sample_size(20);
    targets = frame
}
criterion_main!(benches);
