//! Drafts: written when typing pauses and when the app quits, deleted by a
//! send, brought back when the composer opens, asked about before Esc
//! discards them, badged on their rows; and a round trip through the store.

use chrono::{Duration, TimeZone, Utc};
use crossterm::event::KeyCode;

use crate::drafts::Draft;
use crate::tui::compose::{BY_AGENT, ComposeEffect, ComposeMsg, DRAFT_PAUSE, perform_drafts};
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::update::tests::*;
use crate::tui::update::update;

fn dir(m: &Model) -> std::path::PathBuf {
    m.session.drafts_dir.clone().unwrap()
}

/// The composer open on the first contact (nothing kept for it).
fn composing() -> (Model, String) {
    let mut m = model_with(20, 160, 48);
    let uuid = m.thread.contact.clone().unwrap();
    let fx = update(&mut m, key('R'));
    assert!(
        fx.contains(&Effect::Compose(ComposeEffect::LoadDraft {
            dir: dir(&m),
            contact: uuid.clone()
        })),
        "{fx:?}"
    );
    (m, uuid)
}

fn compose_fx(fx: &[Effect]) -> Vec<ComposeEffect> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Compose(c) => Some(c.clone()),
            _ => None,
        })
        .collect()
}

/// The timers the typing started.
fn pauses(fx: &[Effect]) -> Vec<u64> {
    compose_fx(fx)
        .into_iter()
        .filter_map(|e| match e {
            ComposeEffect::DraftPause { id, after } => {
                assert_eq!(after, DRAFT_PAUSE);
                Some(id)
            }
            _ => None,
        })
        .collect()
}

fn saved(fx: &[Effect]) -> Option<Draft> {
    compose_fx(fx).into_iter().find_map(|e| match e {
        ComposeEffect::SaveDraft { draft, .. } => Some(draft),
        _ => None,
    })
}

fn removed(fx: &[Effect]) -> Option<String> {
    compose_fx(fx).into_iter().find_map(|e| match e {
        ComposeEffect::RemoveDraft { contact, .. } => Some(contact),
        _ => None,
    })
}

fn pause(m: &mut Model, id: u64) -> Vec<Effect> {
    update(m, Msg::Compose(ComposeMsg::DraftPause(id)))
}

fn has_badge(m: &Model, uuid: &str) -> bool {
    m.badges.has(uuid, "draft")
}

fn kept(contact: &str, text: &str, by: &str) -> Draft {
    Draft {
        contact: contact.into(),
        text: text.into(),
        saved_at: Utc.with_ymd_and_hms(2026, 11, 20, 14, 5, 0).unwrap(),
        by: by.into(),
    }
}

fn loaded(m: &mut Model, d: Draft) -> Vec<Effect> {
    update(
        m,
        Msg::Compose(ComposeMsg::DraftLoaded {
            contact: d.contact.clone(),
            result: Ok(Some(d)),
        }),
    )
}

fn toast(m: &Model) -> String {
    m.status.current().map(|t| t.text.clone()).unwrap_or_default()
}

#[test]
fn typing_writes_the_draft_once_it_pauses_not_on_every_key() {
    let (mut m, uuid) = composing();
    let fx = type_text(&mut m, "hi");
    assert!(saved(&fx).is_none(), "no write on a key");
    let ids = pauses(&fx);
    assert_eq!(ids.len(), 2);
    // The first key's timer is stale: a key came after it.
    assert!(saved(&pause(&mut m, ids[0])).is_none());
    assert!(!has_badge(&m, &uuid));
    m.now = now() + Duration::seconds(1);
    let d = saved(&pause(&mut m, ids[1])).expect("the pause writes it");
    assert_eq!(
        d,
        Draft {
            contact: uuid.clone(),
            text: "hi".into(),
            saved_at: m.now,
            by: BY_AGENT.into()
        }
    );
    assert!(has_badge(&m, &uuid), "its row shows the draft mark");
    // Written once: the same timer again, or a key that changes nothing.
    assert!(saved(&pause(&mut m, ids[1])).is_none());
    assert!(pauses(&update(&mut m, code(KeyCode::F(5)))).is_empty());
}

#[test]
fn a_send_deletes_the_draft_and_its_mark() {
    let (mut m, uuid) = composing();
    let ids = pauses(&type_text(&mut m, "On its way"));
    pause(&mut m, *ids.last().unwrap());
    assert!(has_badge(&m, &uuid));
    let fx = submit(&mut m);
    assert!(removed(&fx).is_none(), "kept until the API accepts it");
    let id = sends(&fx)[0].0;
    let fx = update(&mut m, sent_ok(id, &uuid, "msg-1"));
    assert_eq!(removed(&fx).as_deref(), Some(uuid.as_str()));
    assert!(!has_badge(&m, &uuid));
    assert_eq!(m.compose.draft(&uuid), "");
}

#[test]
fn esc_keeps_the_draft_without_asking_and_an_emptied_one_goes() {
    let (mut m, uuid) = composing();
    let ids = pauses(&type_text(&mut m, "half a reply"));
    pause(&mut m, *ids.last().unwrap());
    let fx = update(&mut m, code(KeyCode::Esc));
    assert!(removed(&fx).is_none(), "kept");
    assert!(
        m.compose.open.is_none(),
        "the composer closes: the agent can look elsewhere"
    );
    assert_eq!(m.compose.draft(&uuid), "half a reply");
    assert!(has_badge(&m, &uuid), "the row says a draft waits");
    // R brings it back; emptied, Esc lets it go.
    update(&mut m, key('R'));
    assert_eq!(m.compose.draft(&uuid), "half a reply");
    empty(&mut m, &uuid);
    let fx = update(&mut m, code(KeyCode::Esc));
    assert_eq!(removed(&fx).as_deref(), Some(uuid.as_str()));
    assert!(m.compose.open.is_none());
    assert_eq!(m.compose.draft(&uuid), "");
    assert!(!has_badge(&m, &uuid));
}

/// Deletes the open composer's text, key by key.
fn empty(m: &mut Model, uuid: &str) {
    for _ in 0..m.compose.draft(uuid).chars().count() {
        update(m, code(KeyCode::Backspace));
    }
    assert_eq!(m.compose.draft(uuid), "");
}

#[test]
fn opening_the_composer_brings_the_kept_draft_back_inert_with_the_cursor_at_its_end() {
    let (mut m, uuid) = composing();
    loaded(&mut m, kept(&uuid, "Hello \u{1b}[2J there\nsecond line", BY_AGENT));
    let text = m.compose.draft(&uuid);
    assert!(!text.contains('\u{1b}'), "{text:?}");
    assert!(text.ends_with("there\nsecond line"), "{text:?}");
    let area = &m.compose.drafts[&uuid];
    assert_eq!(area.cursor(), (1, "second line".len()));
    assert_eq!(toast(&m), "draft from 14:05 restored");
    assert!(has_badge(&m, &uuid));
    // Typing goes on at the end.
    type_text(&mut m, "!");
    assert!(m.compose.draft(&uuid).ends_with("second line!"));
}

#[test]
fn a_draft_by_the_assistant_says_so() {
    let (mut m, uuid) = composing();
    loaded(&mut m, kept(&uuid, "Dear customer", crate::drafts::ASSISTANT));
    assert_eq!(m.compose.draft(&uuid), "Dear customer");
    assert!(
        toast(&m).starts_with("the assistant's draft from 14:05 restored"),
        "{}",
        toast(&m)
    );
}

#[test]
fn a_kept_draft_never_overwrites_what_was_typed_meanwhile() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "mine");
    loaded(&mut m, kept(&uuid, "theirs", BY_AGENT));
    assert_eq!(m.compose.draft(&uuid), "mine");
    // Nor lands in another contact's composer.
    loaded(&mut m, kept("someone-else", "theirs", BY_AGENT));
    assert_eq!(m.compose.draft("someone-else"), "");
}

#[test]
fn at_start_the_kept_drafts_badge_their_rows() {
    let mut m = model_with(5, 160, 48);
    let fx = crate::tui::update::startup(&mut m);
    assert!(fx.contains(&Effect::Compose(ComposeEffect::ListDrafts { dir: dir(&m) })));
    let (a, b) = (contact(1).uuid, contact(3).uuid);
    let listed = vec![kept(&a, "one", BY_AGENT), kept(&b, "two", crate::drafts::ASSISTANT)];
    update(&mut m, Msg::Compose(ComposeMsg::DraftsListed(Ok(listed))));
    assert!(has_badge(&m, &a) && has_badge(&m, &b));
    assert!(!has_badge(&m, &contact(0).uuid));
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(160, 48)).unwrap();
    t.draw(|f| crate::tui::view::view(&m, f, &crate::tui::theme::Theme::plain()))
        .unwrap();
    let screen = format!("{}", t.backend());
    assert_eq!(screen.matches(" draft ").count(), 2, "{screen}");
}

#[test]
fn quitting_writes_the_draft_typed_since_the_last_pause() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "almost done");
    let fx = update(&mut m, Msg::Quit);
    assert!(m.quit);
    assert_eq!(
        saved(&fx).map(|d| (d.contact, d.text)),
        Some((uuid, "almost done".into()))
    );
    // Nothing typed since: nothing to write.
    assert!(saved(&update(&mut m, Msg::Quit)).is_none());
}

#[test]
fn a_draft_survives_a_restart_through_the_store() {
    let home = tempfile::tempdir().unwrap();
    let (mut m, uuid) = composing();
    m.session.drafts_dir = Some(home.path().join("drafts"));
    let ids = pauses(&type_text(&mut m, "see you"));
    for e in compose_fx(&pause(&mut m, *ids.last().unwrap())) {
        assert!(matches!(perform_drafts(e), ComposeMsg::DraftKept(Ok(()))));
    }
    // A new session on the same directory.
    let mut m = model_with(20, 160, 48);
    m.session.drafts_dir = Some(home.path().join("drafts"));
    for e in compose_fx(&crate::tui::update::startup(&mut m)) {
        update(&mut m, Msg::Compose(perform_drafts(e)));
    }
    assert!(has_badge(&m, &uuid));
    for e in compose_fx(&update(&mut m, key('R'))) {
        update(&mut m, Msg::Compose(perform_drafts(e)));
    }
    assert_eq!(m.compose.draft(&uuid), "see you");
    assert!(toast(&m).contains("restored"), "{}", toast(&m));
    // Emptied and closed: gone from the disk too.
    empty(&mut m, &uuid);
    for e in compose_fx(&update(&mut m, code(KeyCode::Esc))) {
        assert!(matches!(perform_drafts(e), ComposeMsg::DraftKept(Ok(()))));
    }
    let store = crate::drafts::Drafts::in_dir(home.path().join("drafts"));
    assert!(store.list().unwrap().is_empty());
}

fn sends(fx: &[Effect]) -> Vec<(u64, String)> {
    compose_fx(fx)
        .into_iter()
        .filter_map(|e| match e {
            ComposeEffect::Send { id, contact, .. } => Some((id, contact)),
            _ => None,
        })
        .collect()
}

fn sent_ok(id: u64, contact: &str, uuid: &str) -> Msg {
    Msg::Compose(ComposeMsg::Sent {
        id,
        contact: contact.into(),
        result: Ok(crate::api::SentMessage {
            uuid: uuid.into(),
            status: crate::api::DeliveryStatus::Enqueued,
        }),
    })
}

#[test]
fn a_draft_going_out_is_not_written_and_one_that_failed_is() {
    let (mut m, uuid) = composing();
    type_text(&mut m, "On its way");
    let id = sends(&submit(&mut m))[0].0;
    // Esc while it goes out: the composer closes, nothing is written.
    let fx = update(&mut m, code(KeyCode::Esc));
    assert!(m.compose.open.is_none());
    assert!(saved(&fx).is_none() && !has_badge(&m, &uuid));
    let failed = Msg::Compose(ComposeMsg::Sent {
        id,
        contact: uuid.clone(),
        result: Err(crate::api::ApiError::Timeout("30 s".into())),
    });
    let ids = pauses(&update(&mut m, failed));
    assert_eq!(ids.len(), 1, "the failed text is written at the next pause");
    let d = saved(&pause(&mut m, ids[0])).unwrap();
    assert_eq!(d.text, "On its way");
    assert!(has_badge(&m, &uuid));
}

#[test]
fn pasted_text_is_written_at_the_pause_too() {
    let (mut m, uuid) = composing();
    let ids = pauses(&update(&mut m, Msg::Paste("pasted \u{1b}[31mtext".into())));
    assert_eq!(ids.len(), 1);
    let d = saved(&pause(&mut m, ids[0])).unwrap();
    assert_eq!(d.contact, uuid);
    assert!(
        d.text.starts_with("pasted ") && !d.text.contains('\u{1b}'),
        "{:?}",
        d.text
    );
}

/// The clock, `secs` later.
fn later(m: &mut Model, secs: i64) -> Vec<Effect> {
    let at = m.now + Duration::seconds(secs);
    update(m, Msg::Tick(at))
}

/// The effects' draft reads and writes, run, their answers fed back.
fn run_drafts(m: &mut Model, fx: Vec<Effect>) {
    for e in compose_fx(&fx) {
        if e.in_order() {
            update(m, Msg::Compose(perform_drafts(e)));
        }
    }
}

#[test]
fn a_draft_the_assistant_writes_while_the_app_runs_badges_its_row_after_the_tick() {
    let home = tempfile::tempdir().unwrap();
    let mut m = model_with(5, 160, 48);
    m.session.drafts_dir = Some(home.path().join("drafts"));
    let fx = crate::tui::update::startup(&mut m);
    run_drafts(&mut m, fx);
    let fx = later(&mut m, 1);
    run_drafts(&mut m, fx);
    let uuid = contact(3).uuid;
    assert!(!has_badge(&m, &uuid));

    // `frontdesk mcp`'s draft_reply, in another process.
    let store = crate::drafts::Drafts::in_dir(home.path().join("drafts"));
    store
        .save(&kept(&uuid, "We are on it", crate::drafts::ASSISTANT))
        .unwrap();
    let fx = later(&mut m, 5);
    run_drafts(&mut m, fx);
    assert!(has_badge(&m, &uuid), "the row says draft");
    assert!(toast(&m).contains("the assistant drafted a reply to"), "{}", toast(&m));

    // It sends the reply itself (the draft goes): the badge goes too.
    store.remove(&uuid).unwrap();
    let fx = later(&mut m, 5);
    run_drafts(&mut m, fx);
    assert!(!has_badge(&m, &uuid));
}

#[test]
fn a_listing_taken_before_our_delete_landed_does_not_badge_the_row_again() {
    let home = tempfile::tempdir().unwrap();
    let (mut m, uuid) = composing();
    m.session.drafts_dir = Some(home.path().join("drafts"));
    update(&mut m, Msg::Compose(ComposeMsg::DraftsListed(Ok(Vec::new()))));
    let ids = pauses(&type_text(&mut m, "on my way"));
    let write = pause(&mut m, *ids.last().unwrap());
    run_drafts(&mut m, write);
    // A look is asked for; before it runs, the agent empties the draft.
    let look = later(&mut m, 5);
    empty(&mut m, &uuid);
    let delete = update(&mut m, code(KeyCode::Esc));
    assert!(!has_badge(&m, &uuid));
    // The look lists the draft still there: not believed, a delete is under way.
    run_drafts(&mut m, look);
    assert!(!has_badge(&m, &uuid), "the row is not badged again");
    run_drafts(&mut m, delete);
    let fx = later(&mut m, 5);
    run_drafts(&mut m, fx);
    assert!(!has_badge(&m, &uuid));
    assert!(m.compose.kept.contacts.is_empty());
}
