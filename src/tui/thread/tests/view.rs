//! The thread pane: the message cursor, the delete and details popups, and
//! what a frame costs in layout work at 20,000 messages.

use crossterm::event::KeyCode;
use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::api::{DeliveryStatus, MessageSendRequest};
use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::theme::Theme;
use crate::tui::thread::Popup;
use crate::tui::update::update;

/// The first contact's thread with `n` messages (and more older ones on
/// the server), the thread pane focused.
fn thread_of(n: usize, w: u16, h: u16) -> Model {
    let mut m = model_with(20, w, h);
    load_thread(&mut m, n, Some("older"));
    m.list.paging.loading = None;
    m.thread.loading_older = None;
    update(&mut m, code(KeyCode::Tab));
    m
}

fn draw(m: &Model) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(m.width, m.height)).unwrap();
    t.draw(|f| crate::tui::view::view(m, f, &Theme::plain())).unwrap();
    t
}

fn screen(m: &Model) -> String {
    format!("{}", draw(m).backend())
}

/// Cursor marks in the thread (the focused pane's title has one too).
fn marks(s: &str) -> usize {
    s.matches('▶').count() - s.matches("┌▶").count()
}

#[test]
fn the_cursor_and_the_popups_at_both_sizes() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut m = thread_of(8, w, h);
        // Up to the newest sent message (index 6 of 8; see fixtures).
        update(&mut m, key('k'));
        assert_eq!(m.thread.selected(), Some(6));
        let s = screen(&m);
        assert_eq!(marks(&s), 1, "one message is marked, without colour:\n{s}");
        assert_snapshot!(format!("thread_cursor_{w}x{h}"), draw(&m).backend());
        update(&mut m, key('d'));
        assert!(matches!(m.thread.popup, Some(Popup::ConfirmDelete { .. })));
        assert_snapshot!(format!("thread_delete_{w}x{h}"), draw(&m).backend());
        update(&mut m, code(KeyCode::Esc));
        let fx = update(&mut m, key('i'));
        let id = fx
            .iter()
            .find_map(|e| match e {
                crate::tui::effect::Effect::Thread(crate::tui::thread::ThreadEffect::Status { id, .. }) => Some(*id),
                _ => None,
            })
            .expect("status asked");
        let uuid = m.thread.messages[6].uuid.clone().unwrap();
        let result = Ok(MessageSendRequest {
            uuid,
            status: DeliveryStatus::Delivered,
            message_status_payload: None,
        });
        update(
            &mut m,
            Msg::Thread(crate::tui::thread::ThreadMsg::Status { id, result }),
        );
        let s = screen(&m);
        assert!(s.contains("delivered (kept up to date)"), "{s}");
        assert_snapshot!(format!("thread_info_{w}x{h}"), draw(&m).backend());
    }
}

#[test]
fn a_received_message_is_marked_too_and_says_why_it_cannot_be_deleted() {
    let mut m = thread_of(8, 160, 48);
    update(&mut m, key('k'));
    update(&mut m, key('k'));
    assert_eq!(m.thread.selected(), Some(5));
    update(&mut m, key('d'));
    let s = screen(&m);
    assert!(s.contains("cannot delete: a received message"), "{s}");
    assert!(s.contains("▶ ‹"), "{s}");
}

#[test]
fn a_scroll_step_lays_out_only_what_it_shows_at_20000_messages() {
    let mut m = thread_of(20_000, 160, 48);
    let first = screen(&m);
    let wrapped = m.thread.layout.wrapped();
    assert!(wrapped < 100, "the first frame wrapped {wrapped} messages of 20,000");
    for _ in 0..30 {
        update(&mut m, key('k'));
        draw(&m);
    }
    let steps = m.thread.layout.wrapped() - wrapped;
    assert!(steps <= 30, "30 steps of k wrapped {steps} more messages");
    assert_ne!(screen(&m), first, "the view moved");
    update(&mut m, key('G'));
    assert_eq!(screen(&m), first, "G is back where it started");
    // A resize lays out again what is drawn, lazily.
    let before = m.thread.layout.wrapped();
    update(&mut m, Msg::Resize(120, 40));
    draw(&m);
    let relaid = m.thread.layout.wrapped() - before;
    assert!(relaid > 0 && relaid < 100, "a resize wrapped {relaid} messages");
}

#[test]
fn page_keys_move_a_screen_and_the_cursor_with_it() {
    let mut m = thread_of(200, 160, 48);
    update(&mut m, code(KeyCode::PageUp));
    let up = m.thread.selected().unwrap();
    assert!(up < 199, "the cursor moved up with the page");
    let s = screen(&m);
    assert_eq!(marks(&s), 1, "the cursor is on screen:\n{s}");
    update(&mut m, code(KeyCode::PageDown));
    assert_eq!(m.thread.selected(), Some(199));
    assert!(m.thread.top.is_none(), "back at the newest, pinned");
}

#[test]
fn a_message_sent_through_the_hub_shows_its_agent_and_this_agents_own_shows_you() {
    let mut m = thread_of(12, 160, 48);
    m.thread.me = Some("dana".into());
    let sent: Vec<usize> = (0..m.thread.messages.len())
        .filter(|&i| m.thread.messages[i].status == crate::api::MessageStatus::Sent)
        .collect();
    let [.., lee, dana] = sent.as_slice() else {
        panic!("the fixture has sent messages")
    };
    m.thread.messages[*lee].sent_by = Some("lee\u{1b}[31m\nx".into());
    m.thread.messages[*dana].sent_by = Some("dana".into());
    let s = screen(&m);
    assert!(s.contains("lee") && !s.contains('\u{1b}'), "{s}");
    assert!(s.contains(" you ›"), "{s}");
    assert!(!s.contains("dana ›"), "this agent's own message shows as you: {s}");
    assert_snapshot!("thread_sent_by_160x48", draw(&m).backend());
}

#[test]
fn message_info_says_which_agent_sent_it_when_known() {
    let mut m = thread_of(8, 160, 48);
    m.thread.me = Some("dana".into());
    // The newest sent message (index 6 of 8; see fixtures).
    update(&mut m, key('k'));
    let sent_by_line = |m: &mut Model| {
        update(m, key('i'));
        let s = screen(m);
        update(m, code(KeyCode::Esc));
        s.lines().find(|l| l.contains("sent by")).map(str::to_string)
    };
    let line = sent_by_line(&mut m).expect("a sent message says who sent it");
    assert!(line.contains("unknown"), "{line}");
    m.thread.messages[6].sent_by = Some("lee\u{1b}[31m".into());
    let line = sent_by_line(&mut m).unwrap_or_default();
    assert!(line.contains("sent by  lee") && !line.contains('\u{1b}'), "{line}");
    m.thread.messages[6].sent_by = Some("dana".into());
    let line = sent_by_line(&mut m).unwrap_or_default();
    assert!(line.contains("dana (you)"), "{line}");
    // A message from the customer has no agent.
    update(&mut m, key('k'));
    assert_eq!(sent_by_line(&mut m), None);
}
