//! View snapshots at 80x24 and 160x48 with hostile text in the data. The
//! clock is fixed on the model and the theme is plain, so they are stable.

use crate::tui::inbox::{InboxEffect, InboxMsg};
use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::api::{ApiError, CustomStatus, Funnel};
use crate::tui::fixtures::*;
use crate::tui::model::{Model, Pane, ToastKind};
use crate::tui::msg::Msg;
use crate::tui::theme::Theme;
use crate::tui::update::update;

pub(crate) mod grid;
mod index;
mod invisible;
mod me;
mod styles;
mod widths;

/// A model with contacts, the first one's thread, details and bot loaded.
pub(crate) fn rich(w: u16, h: u16) -> Model {
    let mut m = model_with(20, w, h);
    let uuid = m.thread.contact.clone().unwrap();
    load_thread(&mut m, 8, Some("o"));
    let id = m.details.loading.unwrap();
    update(
        &mut m,
        Msg::Details(crate::tui::details::DetailsMsg::ContactLoaded {
            id,
            uuid: uuid.clone(),
            result: Ok(full_contact(0)),
        }),
    );
    let id = m.details.bot.loading.unwrap();
    update(
        &mut m,
        Msg::Details(crate::tui::details::DetailsMsg::BotLoaded {
            id,
            uuid,
            result: Ok(bot(true)),
        }),
    );
    let funnel = Funnel {
        uuid: "funnel-1".into(),
        name: "Sales pipeline".into(),
        emoji: "🎯".into(),
        ..Default::default()
    };
    // As GET /funnels at start-up teaches it.
    m.known.funnels.insert(funnel.uuid, (funnel.emoji, funnel.name));
    m.details.me.available = Some(true);
    m.details.me.custom_status = Some(("cs1".into(), "🍔 Lunch".into()));
    m.list.paging.loading = None;
    // Some new messages and a pending write, to show the markers.
    let c3 = m.list.store.get(3).unwrap().uuid.clone();
    m.list.set_seen(&c3, now() - chrono::Duration::days(1));
    m
}

pub(crate) fn draw(m: &Model) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(m.width, m.height)).unwrap();
    t.draw(|f| super::view(m, f, &Theme::plain())).unwrap();
    let text = format!("{}", t.backend());
    assert!(!text.contains('\u{1b}'), "raw ESC reached the screen");
    assert!(!text.contains('\u{7}'), "raw BEL reached the screen");
    // Side by side, an overlay covers the panes' borders: then only the cells.
    let buf = t.backend().buffer();
    let check = if m.is_wide() {
        grid::nothing_hidden(buf)
    } else {
        grid::intact(buf)
    };
    grid::panic_on(check, buf, &format!("at {}x{}", m.width, m.height));
    t
}

#[test]
fn wide_main_screen() {
    for (w, h) in [(160, 48), (100, 30)] {
        let m = rich(w, h);
        assert_snapshot!(format!("wide_{w}x{h}"), draw(&m).backend());
    }
}

#[test]
fn wide_with_error_toast_and_filter() {
    let mut m = rich(160, 48);
    m.list.filter.source = Some("instagram".into());
    m.list.filter.tags = vec!["vip".into()];
    m.status.push(
        ToastKind::Error,
        "could not close: the server failed (500): \u{1b}[2Jboom",
        now(),
    );
    assert_snapshot!(draw(&m).backend());
}

#[test]
fn narrow_panes_with_tab_strip() {
    let mut m = rich(80, 24);
    m.status
        .push(ToastKind::Error, "could not save the note: note: too long", now());
    assert_snapshot!("narrow_list_80x24", draw(&m).backend());
    m.focus = Pane::Thread;
    assert_snapshot!("narrow_thread_80x24", draw(&m).backend());
    m.focus = Pane::Details;
    assert_snapshot!("narrow_details_80x24", draw(&m).backend());
}

#[test]
fn overlays_at_both_sizes() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut m = rich(w, h);
        update(&mut m, key('n'));
        assert_snapshot!(format!("note_form_{w}x{h}"), draw(&m).backend());
        update(&mut m, code(crossterm::event::KeyCode::Esc));
        update(&mut m, key('e'));
        assert_snapshot!(format!("edit_form_{w}x{h}"), draw(&m).backend());
        update(&mut m, code(crossterm::event::KeyCode::Esc));
        let cs = CustomStatus {
            id: "cs1".into(),
            name: "Lunch".into(),
            emoji: "🍔".into(),
            ..Default::default()
        };
        update(
            &mut m,
            Msg::Details(crate::tui::details::DetailsMsg::CustomStatusesLoaded(Ok(vec![cs]))),
        );
        update(&mut m, key('s'));
        assert_snapshot!(format!("custom_status_{w}x{h}"), draw(&m).backend());
    }
}

#[test]
fn search_loading_and_no_user() {
    let mut m = rich(160, 48);
    update(&mut m, key('/'));
    for c in "li".chars() {
        for e in update(&mut m, key(c)) {
            // The search runs off the UI thread: run it here.
            if let crate::tui::effect::Effect::Inbox(InboxEffect::SearchContacts(job)) = e
                && let Some(done) = job.run()
            {
                update(&mut m, Msg::Inbox(InboxMsg::ContactsSearched(done)));
            }
        }
    }
    m.list.paging.loading = Some(99);
    m.details.me.user = None;
    m.details.bot.bot = None;
    m.details.bot.error = Some(ApiError::NotFound { what: "bot".into() }.to_string());
    assert_snapshot!("search_no_user_160x48", draw(&m).backend());
    let m = empty_model(80, 24);
    assert_snapshot!("empty_80x24", draw(&m).backend());
}

#[test]
fn tiny_and_huge_terminals_do_not_panic() {
    for (w, h) in [
        (1, 1),
        (10, 5),
        (20, 8),
        (40, 12),
        (79, 23),
        (99, 30),
        (100, 12),
        (250, 70),
    ] {
        let mut m = rich(w, h);
        m.status.push(ToastKind::Error, "boom", now());
        for k in ['?', '?', ':', 'x'] {
            update(&mut m, key(k));
            let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
            t.draw(|f| super::view(&m, f, &Theme::plain())).unwrap();
        }
        update(&mut m, code(crossterm::event::KeyCode::Esc));
        for k in ['n', 'e', 't'] {
            update(&mut m, key(k));
            let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
            t.draw(|f| super::view(&m, f, &Theme::plain())).unwrap();
            update(&mut m, code(crossterm::event::KeyCode::Esc));
        }
        for p in [Pane::Thread, Pane::Details] {
            m.focus = p;
            let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
            t.draw(|f| super::view(&m, f, &Theme::plain())).unwrap();
        }
    }
}
