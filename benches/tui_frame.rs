//! Frame cost must not grow with the number of loaded contacts (the list is
//! windowed), and applying a page must stay cheap at any size.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use frontdesk::tui::fixtures::{contacts, model_with};
use frontdesk::tui::model::Model;
use frontdesk::tui::theme::Theme;
use frontdesk::tui::view::view;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn loaded(n: usize) -> Model {
    let mut m = model_with(20, 160, 48);
    m.list.store.set(contacts(0..n));
    m.list.view.selected = n / 2;
    let h = m.list_height();
    m.list.clamp(h);
    m
}

fn frame(c: &mut Criterion) {
    let theme = Theme::plain();
    for n in [100, 100_000] {
        let m = loaded(n);
        let mut terminal = Terminal::new(TestBackend::new(160, 48)).expect("test backend");
        c.bench_function(&format!("draw_frame_160x48_{n}_contacts"), |b| {
            b.iter(|| {
                terminal.draw(|f| view(black_box(&m), f, &theme)).expect("draw");
            })
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500)).sample_size(20);
    targets = frame
}
criterion_main!(benches);
