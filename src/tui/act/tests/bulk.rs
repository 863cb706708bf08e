//! Marks and actions on many: marking keys, one job per marked contact,
//! four in flight, partial failure, `.`, cancel and the question above 20.

use super::*;
use crate::api::Contact;
use crate::index::Changes;
use crate::triage::bulk::Action as Bulk;
use crate::tui::act::{Job, Purpose};
use crate::tui::msg::index::IndexMsg;

fn uuid(i: usize) -> String {
    contact(i).uuid
}

fn marked(m: &Model) -> Vec<String> {
    let mut v: Vec<String> = m.marks.iter().cloned().collect();
    v.sort();
    v
}

fn uuids(range: impl IntoIterator<Item = usize>) -> Vec<String> {
    let mut v: Vec<String> = range.into_iter().map(uuid).collect();
    v.sort();
    v
}

/// The `Apply` effects among `fx`: (id, uuid, action).
fn applies(fx: &[Effect]) -> Vec<(u64, String, Bulk)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Apply { id, uuid, action, .. } => Some((*id, uuid.clone(), action.clone())),
            _ => None,
        })
        .collect()
}

/// The open contacts among the first `n` of the fixtures (every fifth is
/// closed).
fn open_ones(n: usize) -> Vec<usize> {
    (0..n).filter(|i| i % 5 != 4).collect()
}

fn mark(m: &mut Model, which: &[usize]) {
    for &i in which {
        m.marks.insert(&uuid(i));
    }
}

/// The server's answer to one `Apply`: the contact as it would be after.
fn answer(m: &mut Model, (id, uuid, action): &(u64, String, Bulk), ok: bool) -> Vec<Effect> {
    let result = if ok {
        let mut c: Contact = m.list.contact(uuid).unwrap();
        match action {
            Bulk::Close => c.closed_at = Some(now()),
            Bulk::Reopen => c.closed_at = None,
            Bulk::Assign(who) => c.assigned_user = Some(who.clone()),
            Bulk::Tag(t) => c.tags = crate::triage::bulk::with_tags(&c.tags, t),
            Bulk::Untag(t) => c.tags = crate::triage::bulk::without_tags(&c.tags, t),
            _ => {}
        }
        Ok(c)
    } else {
        Err(ApiError::Server {
            status: 500,
            message: "boom".into(),
        })
    };
    update(
        m,
        Msg::Applied {
            id: *id,
            uuid: uuid.clone(),
            answer: result.into(),
        },
    )
}

/// Answers every request until the run ends; `fail` says which contacts
/// fail. Returns every uuid sent, and checks at most four were ever out.
fn run_to_end(m: &mut Model, first: Vec<Effect>, fail: &[String]) -> Vec<String> {
    let mut out = applies(&first);
    let mut sent: Vec<String> = out.iter().map(|a| a.1.clone()).collect();
    while let Some(a) = out.first().cloned() {
        assert!(out.len() <= 4, "{} requests out at once", out.len());
        out.remove(0);
        let more = applies(&answer(m, &a, !fail.contains(&a.1)));
        sent.extend(more.iter().map(|a| a.1.clone()));
        out.extend(more);
    }
    assert!(m.act.bulk.is_none(), "the run ended");
    sent
}

#[test]
fn space_marks_and_moves_down_and_again_unmarks() {
    let mut m = model_with(20, 80, 24);
    update(&mut m, key(' '));
    update(&mut m, key(' '));
    assert_eq!(marked(&m), uuids(0..2));
    assert_eq!(m.list.view.selected, 2);
    update(&mut m, key('k'));
    update(&mut m, key(' '));
    assert_eq!(marked(&m), uuids([0]));
}

#[test]
fn v_marks_from_the_anchor_to_the_selection_and_follows_it_back() {
    let mut m = model_with(20, 80, 24);
    mark(&mut m, &[10]);
    update(&mut m, key('j'));
    update(&mut m, key('j'));
    update(&mut m, key('V'));
    update(&mut m, key('j'));
    update(&mut m, key('j'));
    update(&mut m, key('j'));
    assert_eq!(marked(&m), uuids([2, 3, 4, 5, 10]));
    update(&mut m, key('k'));
    assert_eq!(marked(&m), uuids([2, 3, 4, 10]), "moving back shrinks the range");
    update(&mut m, key('V'));
    update(&mut m, key('j'));
    update(&mut m, key('j'));
    assert_eq!(marked(&m), uuids([2, 3, 4, 10]), "V again ends it");
    assert!(m.marks.range.is_none());
}

#[test]
fn star_marks_the_whole_view_and_again_unmarks_it() {
    let mut m = model_with(20, 80, 24);
    update(&mut m, key('*'));
    assert_eq!(m.marks.len(), m.list.visible_len());
    assert_eq!(m.marks.len(), 20);
    update(&mut m, key('*'));
    assert!(m.marks.is_empty());
}

#[test]
fn esc_clears_the_marks_first() {
    let mut m = model_with(20, 80, 24);
    update(&mut m, key('V'));
    update(&mut m, key('j'));
    assert_eq!(m.marks.len(), 2);
    update(&mut m, code(KeyCode::Esc));
    assert!(m.marks.is_empty());
    assert!(m.marks.range.is_none());
    update(&mut m, key('j'));
    assert!(m.marks.is_empty(), "the range does not come back");
}

#[test]
fn marks_survive_a_refresh_and_contacts_gone_lose_theirs() {
    let mut m = indexed_model(20, 80, 24);
    mark(&mut m, &[1, 2, 3]);
    // Contact 3 gets a message (moves to the top); contact 2 is gone.
    let mut moved = contact(3);
    moved.activity_at = Some(now());
    update(
        &mut m,
        Msg::Index(IndexMsg::Changed(Changes {
            upserted: vec![moved],
            removed: vec![uuid(2)],
        })),
    );
    assert_eq!(m.list.row(0).unwrap().uuid.to_string(), uuid(3));
    assert_eq!(marked(&m), uuids([1, 3]));
}

#[test]
fn close_on_marks_sends_one_job_per_open_marked_contact_four_at_a_time() {
    let mut m = model_with(20, 80, 24);
    // 0..12 holds two closed conversations (4 and 9): they are skipped.
    mark(&mut m, &(0..12).collect::<Vec<_>>());
    let fx = update(&mut m, key('c'));
    let first = applies(&fx);
    assert_eq!(first.len(), 4, "four in flight");
    assert!(first.iter().all(|a| a.2 == Bulk::Close));
    assert_eq!(m.act.bulk.as_ref().unwrap().total, 10);
    let sent = run_to_end(&mut m, fx, &[]);
    let mut sent_sorted = sent.clone();
    sent_sorted.sort();
    assert_eq!(sent_sorted, uuids(open_ones(12)), "each open marked contact once");
    assert!(
        m.marks.is_empty(),
        "the closed ones (4, 9) needed nothing: unmarked too"
    );
    assert!(m.status.current().unwrap().text.contains("closing: 10 done"));
    assert!(open_ones(12).iter().all(|&i| !m.list.get(&uuid(i)).unwrap().is_open()));
}

#[test]
fn c_reopens_when_every_marked_one_is_closed() {
    let mut m = model_with(20, 80, 24);
    mark(&mut m, &[4, 9]);
    let fx = update(&mut m, key('c'));
    let a = applies(&fx);
    assert_eq!(a.len(), 2);
    assert!(a.iter().all(|a| a.2 == Bulk::Reopen));
}

#[test]
fn a_partial_failure_lists_the_failed_keeps_them_marked_and_dot_retries_only_them() {
    let mut m = model_with(20, 80, 24);
    mark(&mut m, &[0, 1, 2, 3, 5, 6]);
    let fx = update(&mut m, key('c'));
    let fail = uuids([1, 5]);
    run_to_end(&mut m, fx, &fail);
    assert_eq!(marked(&m), fail, "failed stay marked, the others are unmarked");
    let Some(Overlay::Summary(s)) = &m.overlay else {
        panic!("a summary, got {:?}", m.overlay)
    };
    assert!(s.counts.contains("4 done · 2 failed"), "{}", s.counts);
    assert_eq!(s.failures.len(), 2);
    let names = [contact(1).name, contact(5).name];
    for (line, name) in s.failures.iter().zip(names) {
        let clean = crate::tui::text::sanitize_line(&name);
        assert!(line.starts_with(&clean) && line.contains("boom"), "{line}");
    }
    // `.` in the summary retries just the failed.
    let fx = update(&mut m, key('.'));
    assert!(m.overlay.is_none());
    let mut again: Vec<String> = applies(&fx).into_iter().map(|a| a.1).collect();
    again.sort();
    assert_eq!(again, fail);
    run_to_end(&mut m, fx, &[]);
    assert!(m.marks.is_empty());
    assert!(m.status.current().unwrap().text.contains("closing: 2 done"));
}

#[test]
fn esc_stops_a_run_what_landed_stays_and_the_summary_counts_the_unsent() {
    let mut m = model_with(20, 80, 24);
    let which = open_ones(15);
    mark(&mut m, &which);
    let fx = update(&mut m, key('c'));
    let out = applies(&fx);
    assert_eq!(out.len(), 4);
    update(&mut m, code(KeyCode::Esc));
    assert!(m.act.bulk.as_ref().unwrap().cancelled);
    assert_eq!(m.marks.len(), which.len(), "Esc stopped the run, not the marks");
    let mut more = Vec::new();
    for a in &out {
        more.extend(applies(&answer(&mut m, a, true)));
    }
    assert!(more.is_empty(), "nothing sent after Esc");
    assert!(m.act.bulk.is_none());
    for a in &out {
        assert!(!m.list.get(&a.1).unwrap().is_open(), "what landed stays closed");
        assert!(!m.marks.contains(&a.1));
    }
    assert_eq!(m.marks.len(), which.len() - 4, "the unsent stay marked");
    let Some(Overlay::Summary(s)) = &m.overlay else {
        panic!("a summary")
    };
    assert!(s.counts.contains("8 never sent"), "{}", s.counts);
}

#[test]
fn above_twenty_the_action_asks_first_naming_the_count() {
    let mut m = model_with(40, 80, 24);
    let open = open_ones(40);
    mark(&mut m, &open[..21]);
    let fx = update(&mut m, key('c'));
    assert!(applies(&fx).is_empty(), "nothing sent before y");
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("a question, got {:?}", m.overlay)
    };
    assert_eq!(c.question, "Close 21 conversations?");
    update(&mut m, key('n'));
    assert!(m.overlay.is_none() && m.act.bulk.is_none());
    update(&mut m, key('c'));
    let fx = update(&mut m, key('y'));
    assert_eq!(applies(&fx).len(), 4);
    assert_eq!(m.act.bulk.as_ref().unwrap().total, 21);

    let mut m = model_with(40, 80, 24);
    mark(&mut m, &open[..20]);
    let fx = update(&mut m, key('c'));
    assert!(m.overlay.is_none(), "twenty go without a question");
    assert_eq!(applies(&fx).len(), 4);
}

#[test]
fn assign_on_marks_is_the_assign_form_for_the_count() {
    let mut m = model_with(20, 160, 48);
    mark(&mut m, &[1, 3, 5]);
    update(&mut m, key('a'));
    let Some(Overlay::Form { kind, form, .. }) = &m.overlay else {
        panic!("a form")
    };
    assert_eq!(*kind, FormKind::Many(crate::tui::act::ManyForm::Assign));
    assert_eq!(form.title(), "Assign 3 contacts");
    type_text(&mut m, "boss@example.test");
    let fx = submit(&mut m);
    let a = applies(&fx);
    assert_eq!(a.len(), 3);
    assert!(a.iter().all(|a| a.2 == Bulk::Assign("boss@example.test".into())));
}

#[test]
fn tags_on_marks_add_and_remove_one_request_per_contact_at_a_time() {
    let mut m = model_with(20, 160, 48);
    mark(&mut m, &[0, 1]);
    update(&mut m, key('t'));
    type_text(&mut m, "gold");
    update(&mut m, code(KeyCode::Enter));
    update(&mut m, code(KeyCode::Tab));
    type_text(&mut m, "urgent");
    update(&mut m, code(KeyCode::Enter));
    let fx = submit(&mut m);
    let a = applies(&fx);
    // Two contacts, two jobs each, but one request per contact at a time.
    assert_eq!(a.len(), 2, "{a:?}");
    assert!(a.iter().all(|a| a.2 == Bulk::Tag(vec!["gold".into()])));
    let sent = run_to_end(&mut m, fx, &[]);
    assert_eq!(sent.len(), 4);
    let c1 = m.list.get(&uuid(1)).unwrap();
    let tags: Vec<&str> = c1.tags.iter().map(|t| &**t).collect();
    assert_eq!(tags, ["billing", "gold"], "gold added, urgent removed, billing kept");
}

#[test]
fn bot_on_marks_asks_start_or_stop() {
    let mut m = model_with(20, 160, 48);
    mark(&mut m, &[0, 1]);
    update(&mut m, key('b'));
    assert!(matches!(&m.overlay, Some(Overlay::Form { form, .. }) if form.title() == "Bot of 2 contacts"));
    type_text(&mut m, "stop");
    let fx = update(&mut m, code(KeyCode::Enter));
    let a = applies(&fx);
    assert_eq!(a.len(), 2);
    assert!(a.iter().all(|a| a.2 == Bulk::Bot(false)));
}

#[test]
fn note_and_edit_refuse_with_marks() {
    let mut m = model_with(20, 80, 24);
    mark(&mut m, &[0, 1]);
    for k in ['n', 'e'] {
        update(&mut m, key(k));
        assert!(m.overlay.is_none(), "{k} opens nothing");
        assert!(m.status.current().unwrap().text.contains("Esc clears the 2 marks"));
    }
}

#[test]
fn an_undo_run_leaves_the_marks_alone() {
    let mut m = model_with(20, 80, 24);
    mark(&mut m, &[0, 1]);
    let jobs: Vec<Job> = [0, 2]
        .iter()
        .map(|&i| Job {
            uuid: uuid(i),
            name: contact(i).name,
            action: Bulk::Close,
            before: contact(i),
            bot_before: None,
            guard: None,
        })
        .collect();
    let mut fx = Vec::new();
    crate::tui::update::bulk::start(&mut m, Purpose::Undo, "undoing", jobs, &mut fx);
    run_to_end(&mut m, fx, &[uuid(2)]);
    assert_eq!(marked(&m), uuids([0, 1]));
    let Some(Overlay::Summary(s)) = &m.overlay else {
        panic!("a summary")
    };
    assert!(s.title.starts_with("Undoing: 1 of 2"), "{}", s.title);
    assert!(s.hint.is_none(), "an undo's failures are not marked for `.`");
}

#[test]
fn team_on_marks_sets_the_team_by_name() {
    let mut m = model_with(20, 160, 48);
    m.known.add_team("team-2", "Sales");
    mark(&mut m, &[0, 2]);
    update(&mut m, key('T'));
    type_text(&mut m, "Sales");
    let fx = submit(&mut m);
    let a = applies(&fx);
    assert_eq!(a.len(), 2);
    assert!(a.iter().all(|a| a.2 == Bulk::Team("team-2".into())));
}

#[test]
fn dot_without_marks_repeats_on_the_selected_contact() {
    let mut m = model_with(20, 80, 24);
    let fx = update(&mut m, key('.'));
    assert!(applies(&fx).is_empty());
    assert!(m.status.current().unwrap().text.contains("nothing to repeat"));
    mark(&mut m, &[0]);
    let fx = update(&mut m, key('c'));
    run_to_end(&mut m, fx, &[]);
    update(&mut m, key('j'));
    let fx = update(&mut m, key('.'));
    let a = applies(&fx);
    assert_eq!(a.len(), 1);
    assert_eq!((a[0].1.clone(), a[0].2.clone()), (uuid(1), Bulk::Close));
}

#[test]
fn a_tags_change_counts_contacts_and_names_the_half_that_failed() {
    let mut m = model_with(20, 160, 48);
    mark(&mut m, &[0, 1]);
    update(&mut m, key('t'));
    type_text(&mut m, "gold");
    update(&mut m, code(KeyCode::Enter));
    update(&mut m, code(KeyCode::Tab));
    type_text(&mut m, "urgent");
    update(&mut m, code(KeyCode::Enter));
    let mut out = applies(&submit(&mut m));
    // Contact 1's removal fails; everything else goes through.
    while let Some(a) = out.first().cloned() {
        out.remove(0);
        let ok = !(a.1 == uuid(1) && matches!(a.2, Bulk::Untag(_)));
        out.extend(applies(&answer(&mut m, &a, ok)));
    }
    let Some(Overlay::Summary(s)) = &m.overlay else {
        panic!("a summary")
    };
    assert!(s.counts.starts_with("1 done · 1 failed"), "{}", s.counts);
    assert!(s.title.ends_with("1 of 2"), "{}", s.title);
    assert_eq!(s.failures.len(), 1);
    assert!(s.failures[0].contains("(untag)"), "{}", s.failures[0]);
    assert_eq!(marked(&m), uuids([1]));
}
