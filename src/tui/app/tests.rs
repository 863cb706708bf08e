use super::*;
use crate::tui::fixtures::{contacts, full_contact, messages, model_with, page};
use crate::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// Draws like the loop does and says whether a spinner was on screen.
fn draw(model: &Model) -> bool {
    let mut terminal = Terminal::new(TestBackend::new(model.width, model.height)).expect("test backend");
    model.take_spun();
    terminal.draw(|f| view(model, f, &Theme::plain())).expect("draw");
    let spun = model.take_spun();
    if spun {
        eprintln!("{}", terminal.backend());
    }
    spun
}

/// Contacts and the first thread loaded, nothing in flight.
fn idle_model() -> Model {
    let mut m = model_with(20, 160, 48);
    if let (Some(id), Some(contact)) = (m.thread.loading, m.thread.contact.clone()) {
        update(
            &mut m,
            Msg::Thread(crate::tui::thread::ThreadMsg::Loaded {
                id,
                contact,
                fetch: crate::tui::msg::ThreadFetch::Initial,
                result: Ok(page(messages(20), None)),
            }),
        );
    }
    let uuid = m.thread.contact.clone().unwrap_or_default();
    if let Some(id) = m.details.loading {
        let result = Ok(full_contact(0));
        update(
            &mut m,
            Msg::Details(crate::tui::details::DetailsMsg::ContactLoaded {
                id,
                uuid: uuid.clone(),
                result,
            }),
        );
    }
    if let Some(id) = m.details.bot.loading {
        let result = Err(crate::api::ApiError::NotFound { what: "bot".into() });
        update(
            &mut m,
            Msg::Details(crate::tui::details::DetailsMsg::BotLoaded { id, uuid, result }),
        );
    }
    // The last page, then the walk's top-up pass (nothing moved).
    while let Some(id) = m.list.paging.loading {
        let generation = m.list.paging.generation;
        update(
            &mut m,
            Msg::ContactsLoaded {
                id,
                generation,
                fetch: crate::tui::msg::ListFetch::Next,
                result: Ok(page(contacts(20..25), None)),
            },
        );
    }
    m
}

#[test]
fn an_idle_model_is_not_redrawn_on_a_tick_and_sleeps() {
    let mut m = idle_model();
    let painter = Painter { animating: draw(&m) };
    assert!(!painter.animating, "nothing loads: no spinner");
    let before = Clocked::of(&m);
    let later = m.now + chrono::Duration::milliseconds(120);
    update(&mut m, Msg::Tick(later));
    assert!(
        !painter.wants_frame(false, &before, &m),
        "a tick that changes nothing draws nothing"
    );
    assert!(
        painter.sleep_for(&m, later) >= Duration::from_millis(500),
        "idle: no 120 ms ticks"
    );
}

#[test]
fn a_spinner_keeps_the_clock_ticking_and_input_draws() {
    let mut m = model_with(20, 160, 48);
    m.thread.contact = Some("someone".into());
    m.thread.loading = Some(99);
    let painter = Painter { animating: draw(&m) };
    assert!(painter.animating, "the loading thread shows a spinner");
    assert_eq!(painter.sleep_for(&m, m.now), ANIMATION);
    let before = Clocked::of(&m);
    assert!(painter.wants_frame(false, &before, &m));
    let idle = Painter::default();
    assert!(idle.wants_frame(true, &before, &m), "input or a result always draws");
}

#[test]
fn a_toast_ending_draws_and_is_woken_for() {
    let mut m = idle_model();
    let now = m.now;
    m.status.push(crate::tui::model::ToastKind::Info, "saved", now);
    let painter = Painter::default();
    assert!(painter.sleep_for(&m, now) <= Duration::from_millis(4001));
    let before = Clocked::of(&m);
    update(&mut m, Msg::Tick(now + chrono::Duration::seconds(5)));
    assert!(m.status.toasts.is_empty());
    assert!(painter.wants_frame(false, &before, &m), "the toast went away");
}

#[test]
fn the_end_of_an_undo_offer_is_woken_for_and_drawn() {
    use crate::tui::model::ToastKind;
    let mut m = idle_model();
    let now = m.now;
    let fx = update(&mut m, crate::tui::fixtures::key('c'));
    let Some(crate::tui::effect::Effect::Apply { id, uuid, .. }) = fx.into_iter().find(|e| {
        matches!(
            e,
            crate::tui::effect::Effect::Apply {
                action: crate::triage::bulk::Action::Close,
                ..
            }
        )
    }) else {
        panic!("a close")
    };
    let mut closed = full_contact(0);
    closed.closed_at = Some(now);
    update(
        &mut m,
        Msg::Applied {
            id,
            uuid,
            answer: (Ok(closed)).into(),
        },
    );
    // Later errors outlive the offer and push its toast out.
    let later = now + chrono::Duration::seconds(5);
    update(&mut m, Msg::Tick(later));
    for text in ["a", "b", "c"] {
        m.status.push(ToastKind::Error, text, later);
    }
    let painter = Painter::default();
    assert!(painter.sleep_for(&m, later) <= Duration::from_millis(5001));
    let before = Clocked::of(&m);
    update(&mut m, Msg::Tick(now + chrono::Duration::seconds(10)));
    assert!(!m.status.toasts.is_empty(), "the errors still show");
    assert!(painter.wants_frame(false, &before, &m), "u undo went away");
}

#[test]
fn a_sync_report_draws_only_when_it_changes_what_is_shown() {
    use crate::tui::msg::index::IndexMsg;
    let mut m = crate::tui::fixtures::indexed_model(30, 160, 48);
    // No spinner on screen (the first contact's thread is not loading).
    let painter = Painter::default();
    let report = |m: &Model, secs: i64| {
        let mut s = m.sync.status.clone().unwrap();
        s.synced_at = Some(m.now - chrono::Duration::seconds(secs));
        Msg::Index(IndexMsg::Status(s))
    };
    // A pass 2 s ago then one just now: "synced just now" both times.
    let first = report(&m, 2);
    update(&mut m, first);
    let before = Clocked::of(&m);
    let msg = report(&m, 0);
    assert!(!is_news(&msg));
    update(&mut m, msg);
    assert!(!painter.wants_frame(false, &before, &m), "the same words: no frame");
    // Offline: the words change, so the bar is drawn.
    let mut s = m.sync.status.clone().unwrap();
    s.offline = true;
    update(&mut m, Msg::Index(IndexMsg::Status(s)));
    assert!(painter.wants_frame(false, &before, &m));
    assert!(is_news(&Msg::RefreshDue));
}
