//! The tabs: view rules over the loaded rows, counts, switching with each
//! view's place kept, digits against counts, and rows that leave a view by
//! the agent's own action.

use super::*;
use crate::tui::inbox::views::Views;

/// `n` indexed contacts, the agent being the one half of them are assigned
/// to (even ones; every fifth is closed), on view `name`.
fn triage_model(n: usize, name: &str) -> Model {
    let mut m = indexed_model(n, 160, 48);
    m.views = Views::new(Vec::new(), Some("agent@example.test".into()));
    let i = m.views.all.iter().position(|v| v.name == name).unwrap();
    m.views.current = i;
    update(&mut m, Msg::Tick(now()));
    m
}

fn shown(m: &Model) -> Vec<String> {
    (0..m.list.visible_len())
        .map(|r| m.list.row(r).unwrap().uuid.to_string())
        .collect()
}

fn uuid(i: usize) -> String {
    contact(i).uuid
}

#[test]
fn mine_shows_the_open_conversations_assigned_to_me_in_activity_order() {
    let m = triage_model(30, "Mine");
    let want: Vec<String> = (0..30).filter(|i| i % 2 == 0 && i % 5 != 4).map(uuid).collect();
    assert_eq!(shown(&m), want);
    assert_eq!(m.views.counts[0].n, want.len());
    assert!(!m.views.counts[0].at_least, "the index is complete: counts are exact");
}

#[test]
fn unassigned_and_open_and_all_count_what_a_walk_would() {
    let m = triage_model(30, "All");
    let count = |name: &str| m.views.counts[m.views.all.iter().position(|v| v.name == name).unwrap()].n;
    assert_eq!(
        count("Unassigned"),
        (0..30).filter(|i| i % 2 == 1 && i % 5 != 4).count()
    );
    assert_eq!(count("Open"), (0..30).filter(|i| i % 5 != 4).count());
    assert_eq!(count("All"), 30);
    assert_eq!(shown(&m).len(), 30);
}

#[test]
fn waiting_puts_the_longest_wait_first_and_is_at_least_while_who_wrote_last_is_unknown() {
    use crate::index::{Preview, Who};
    let mut m = triage_model(12, "Waiting");
    let waiting = m.views.all.iter().position(|v| v.name == "Waiting").unwrap();
    assert!(shown(&m).is_empty());
    assert!(m.views.counts[waiting].at_least, "nobody's last message is known yet");
    let mut previews = Vec::new();
    for i in 0..12 {
        let c = contact(i);
        let who = if i % 3 == 0 { Who::Customer } else { Who::Agent };
        previews.push((
            c.uuid.clone(),
            Preview {
                who: Some(who),
                text: "hi".into(),
                at: c.activity_at,
                activity: c.last_activity(),
                wait: Default::default(),
            },
        ));
    }
    update(&mut m, Msg::Index(crate::tui::msg::index::IndexMsg::Previews(previews)));
    // 0, 3, 6 and 9 are the customer's, 9 is closed; 6 (oldest) first.
    let want: Vec<String> = [6, 3, 0].into_iter().map(uuid).collect();
    assert_eq!(shown(&m), want);
    assert_eq!(m.views.counts[waiting].n, 3);
    assert!(!m.views.counts[waiting].at_least);
}

#[test]
fn brackets_step_through_views_and_each_keeps_its_place() {
    let mut m = triage_model(40, "Open");
    for _ in 0..5 {
        update(&mut m, key('j'));
    }
    let in_open = m.list.selected_uuid();
    update(&mut m, key(']'));
    assert_eq!(m.views.current().name, "All");
    assert_eq!(m.list.view.selected, 0, "a view not visited starts at the top");
    update(&mut m, key('j'));
    update(&mut m, key('['));
    assert_eq!(m.views.current().name, "Open");
    assert_eq!(m.list.selected_uuid(), in_open, "back where it was");
    update(&mut m, key(']'));
    assert_eq!(m.list.view.selected, 1);
    update(&mut m, key(']'));
    assert_eq!(m.views.current().name, "Mine", "round");
}

#[test]
fn a_lone_digit_names_a_view_after_a_pause_or_at_the_next_key() {
    let mut m = triage_model(40, "All");
    let fx = update(&mut m, key('2'));
    let id = fx
        .iter()
        .find_map(|e| match e {
            Effect::Inbox(InboxEffect::CountTimeout { id, .. }) => Some(*id),
            _ => None,
        })
        .expect("a timer for the digit");
    assert_eq!(m.views.current().name, "All", "not before the pause");
    update(&mut m, Msg::Inbox(InboxMsg::CountTimeout(id)));
    assert_eq!(m.views.current().name, "Unassigned");
    // A digit followed by a non-motion key switches first.
    update(&mut m, key('4'));
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(m.views.current().name, "Open");
    // A count before a motion stays a count.
    update(&mut m, key('3'));
    update(&mut m, key('j'));
    assert_eq!(m.views.current().name, "Open");
    assert_eq!(m.list.view.selected, 3);
    update(&mut m, key('1'));
    update(&mut m, key('2'));
    update(&mut m, key('j'));
    assert_eq!(m.list.view.selected, 15, "12j");
    assert_eq!(m.views.current().name, "Open");
}

#[test]
fn a_row_closed_in_mine_stays_greyed_until_the_selection_moves() {
    let mut m = triage_model(30, "Mine");
    let first = m.list.selected_uuid().unwrap();
    let second = m.list.row(1).unwrap().uuid.to_string();
    update(&mut m, key('c'));
    assert_eq!(m.list.selected_uuid().as_deref(), Some(first.as_str()), "no jump");
    assert!(m.views.greyed.iter().any(|u| **u == *first), "greyed");
    update(&mut m, key('j'));
    assert_eq!(m.list.selected_uuid(), Some(second.clone()));
    assert!(!shown(&m).contains(&first), "gone once the selection moved");
    assert_eq!(m.list.view.selected, 0);
}

#[test]
fn close_and_next_lands_on_the_next_row_of_the_same_view() {
    let mut m = triage_model(30, "Mine");
    let rows = shown(&m);
    let fx = update(&mut m, key('C'));
    assert_eq!(m.list.selected_uuid(), Some(rows[1].clone()));
    // The close lands after the selection moved on: the row does not
    // come back.
    let id = close_id(&fx);
    let mut closed = contact(0);
    closed.closed_at = Some(now());
    update(
        &mut m,
        Msg::Applied {
            id,
            uuid: rows[0].clone(),
            answer: (Ok(closed)).into(),
        },
    );
    assert_eq!(shown(&m), rows[1..].to_vec());
    assert_eq!(m.list.view.selected, 0);
    update(&mut m, key('C'));
    assert_eq!(m.list.selected_uuid(), Some(rows[2].clone()));
    assert_eq!(shown(&m), rows[2..].to_vec(), "the closed ones left Mine");
    let mine = m.views.counts[0].n;
    assert_eq!(mine, rows.len() - 2);
}

#[test]
fn mine_without_an_email_is_greyed_and_says_how_to_set_it() {
    let mut m = indexed_model(10, 80, 24);
    m.views = Views::new(Vec::new(), None);
    assert_eq!(m.views.current().name, "Open", "starts on Open without a me");
    assert!(m.views.is_unusable(0));
    update(&mut m, key('['));
    update(&mut m, key('['));
    update(&mut m, key('['));
    assert_eq!(m.views.current().name, "Mine");
    let toast = m.status.current().unwrap().text.clone();
    assert!(toast.contains("user_email"), "{toast}");
}

#[test]
fn another_agents_close_leaves_the_view_and_its_count_on_the_next_pass() {
    use crate::index::Changes;
    let mut m = triage_model(30, "Open");
    let before = m.views.counts[3].n;
    let mut c = contact(7);
    c.closed_at = Some(now());
    update(
        &mut m,
        Msg::Index(crate::tui::msg::index::IndexMsg::Changed(Changes {
            upserted: vec![c.clone()],
            removed: vec![],
        })),
    );
    assert_eq!(m.views.counts[3].n, before - 1);
    assert!(!shown(&m).contains(&c.uuid));
}

/// Moves the open form's focus down `n` fields.
fn tab(m: &mut Model, n: usize) {
    for _ in 0..n {
        update(m, code(KeyCode::Tab));
    }
}

#[test]
fn f_edits_the_current_views_filter_for_the_session() {
    let mut m = triage_model(30, "Open");
    update(&mut m, key('f'));
    assert!(matches!(
        m.overlay,
        Some(Overlay::Form {
            kind: FormKind::View,
            ..
        })
    ));
    tab(&mut m, 8); // Text
    type_text(&mut m, "Contact 0001");
    submit(&mut m);
    assert!(m.overlay.is_none());
    let want: Vec<String> = (10..20).filter(|i| i % 5 != 4).map(uuid).collect();
    assert_eq!(shown(&m), want);
    let open = m.views.current;
    assert!(m.views.is_edited(open), "the tab says it is edited");
    assert_eq!(m.views.counts[open].n, want.len());
}

#[test]
fn a_bad_duration_in_the_filter_form_names_the_field_and_keeps_the_form() {
    let mut m = triage_model(10, "Open");
    update(&mut m, key('f'));
    tab(&mut m, 9); // Idle for
    type_text(&mut m, "soon");
    let fx = submit(&mut m);
    assert!(fx.is_empty());
    let Some(Overlay::Form { form, .. }) = &m.overlay else {
        panic!("the form stays open");
    };
    let shown = format!("{form:?}");
    assert!(shown.contains("Idle for"), "{shown}");
}

#[test]
fn save_as_writes_the_view_to_the_config_file_and_opens_its_tab() {
    let mut m = triage_model(30, "Open");
    m.views.config_path = Some("/tmp/frontdesk-test-never-written.toml".into());
    update(&mut m, key('f'));
    tab(&mut m, 6); // Team
    type_text(&mut m, "team-1");
    tab(&mut m, 4); // Save as
    type_text(&mut m, "Support team");
    let fx = submit(&mut m);
    let saved = fx.iter().find_map(|e| match e {
        Effect::Inbox(InboxEffect::SaveView { path, view }) => Some((path.clone(), view.as_ref().clone())),
        _ => None,
    });
    let (path, view) = saved.expect("the view is written by an effect");
    assert_eq!(path, std::path::PathBuf::from("/tmp/frontdesk-test-never-written.toml"));
    assert_eq!(view.name, "Support team");
    assert_eq!(view.filter.team.as_deref(), Some("team-1"));
    assert_eq!(m.views.current().name, "Support team");
    let open = m.views.all.iter().position(|v| v.name == "Open").unwrap();
    assert!(!m.views.is_edited(open), "Open is as it was");
    let want: Vec<String> = (0..30).filter(|i| i % 5 != 4 && i % 3 == 1).map(uuid).collect();
    assert_eq!(shown(&m), want);
    update(
        &mut m,
        Msg::Inbox(InboxMsg::ViewSaved {
            name: "Support team".into(),
            result: Err("permission denied".into()),
        }),
    );
    let toast = m.status.current().unwrap().text.clone();
    assert!(toast.contains("could not save the view Support team"), "{toast}");
}

#[test]
fn a_built_in_name_cannot_be_saved_over() {
    let mut m = triage_model(10, "Open");
    m.views.config_path = Some("/tmp/x.toml".into());
    update(&mut m, key('f'));
    tab(&mut m, 10);
    type_text(&mut m, "mine");
    let fx = submit(&mut m);
    assert!(
        !fx.iter()
            .any(|e| matches!(e, Effect::Inbox(InboxEffect::SaveView { .. })))
    );
    assert!(format!("{:?}", m.overlay).contains("Form"), "the form stays open");
}

#[test]
fn rows_closed_in_bulk_stay_greyed_until_the_selection_moves() {
    let mut m = triage_model(30, "Mine");
    let rows = shown(&m);
    assert!(rows.len() <= 20, "no question to answer");
    update(&mut m, key('*'));
    let mut fx = update(&mut m, key('c'));
    // Answer every request as the server would, as they go out.
    while let Some((id, uuid)) = fx.iter().find_map(|e| match e {
        Effect::Apply { id, uuid, .. } => Some((*id, uuid.clone())),
        _ => None,
    }) {
        fx.retain(|e| !matches!(e, Effect::Apply { id: i, .. } if *i == id));
        let i = (0..30).find(|&i| contact(i).uuid == uuid).unwrap();
        let mut closed = contact(i);
        closed.closed_at = Some(now());
        fx.extend(update(
            &mut m,
            Msg::Applied {
                id,
                uuid,
                answer: (Ok(closed)).into(),
            },
        ));
    }
    assert_eq!(m.views.counts[0].n, 0, "Mine is empty");
    assert_eq!(shown(&m), rows, "but its rows stay under the cursor");
    assert_eq!(m.views.greyed.len(), rows.len(), "all greyed");
    update(&mut m, key('j'));
    assert!(shown(&m).is_empty(), "gone once the selection moved");
}

#[test]
fn a_contact_arriving_above_keeps_the_selection_on_its_contact() {
    use crate::index::Changes;
    let mut m = triage_model(30, "Open");
    for _ in 0..4 {
        update(&mut m, key('j'));
    }
    let on = m.list.selected_uuid();
    let mut fresh = contact(100);
    fresh.activity_at = Some(now());
    fresh.closed_at = None;
    update(
        &mut m,
        Msg::Index(crate::tui::msg::index::IndexMsg::Changed(Changes {
            upserted: vec![fresh],
            removed: vec![],
        })),
    );
    assert_eq!(m.list.selected_uuid(), on, "still on the same contact");
    assert_eq!(m.list.view.selected, 5, "one row lower: the new one is on top");
}

#[test]
fn a_refreshed_first_page_with_a_new_contact_keeps_the_selection_on_its_contact() {
    let mut m = model_with(30, 160, 48);
    m.views = Views::new(Vec::new(), Some("agent@example.test".into()));
    update(&mut m, Msg::Tick(now()));
    for _ in 0..4 {
        update(&mut m, key('j'));
    }
    let on = m.list.selected_uuid();
    let mut fresh = contact(100);
    fresh.activity_at = Some(now());
    fresh.closed_at = None;
    fresh.assigned_user = Some("agent@example.test".into());
    refreshed(&mut m, vec![fresh], Some("c1"));
    assert_eq!(m.list.selected_uuid(), on, "still on the same contact");
    assert_eq!(m.list.view.selected, 5, "one row lower: the new one is on top");
}

#[test]
fn a_contact_created_outside_the_view_is_shown_and_selected_in_all() {
    let mut m = triage_model(30, "Mine");
    let mut created = contact(900);
    created.assigned_user = None;
    update(
        &mut m,
        Msg::Created {
            id: 1,
            result: Ok(created.clone()),
        },
    );
    assert_eq!(m.views.current().name, "All");
    assert_eq!(m.list.selected_uuid(), Some(created.uuid));
}

/// `*` on a view with rules chooses its contacts by them: the run checks
/// each against them (`Guard::Chosen`); marking one more by hand, or the
/// All view, or `Esc` drops the check.
#[test]
fn marks_of_a_whole_view_are_checked_against_it_and_a_hand_mark_drops_that() {
    use crate::tui::act::Guard;
    let guards = |fx: &[Effect]| -> Vec<bool> {
        fx.iter()
            .filter_map(|e| match e {
                Effect::Apply { guard, .. } => Some(matches!(guard.as_deref(), Some(Guard::Chosen(_)))),
                _ => None,
            })
            .collect()
    };
    let mut m = triage_model(30, "Mine");
    update(&mut m, key('*'));
    let mine = m.marks.chosen.clone().expect("chosen by Mine's rules");
    assert_eq!(mine, m.views.current().filter);
    let fx = update(&mut m, key('c'));
    assert!(
        !guards(&fx).is_empty() && guards(&fx).iter().all(|&g| g),
        "each close is checked"
    );

    let mut m = triage_model(30, "Mine");
    update(&mut m, key('*'));
    update(&mut m, key('g'));
    update(&mut m, key(' '));
    assert!(
        m.marks.chosen.is_some(),
        "unmarking one keeps the others chosen by the view"
    );
    update(&mut m, key('g'));
    update(&mut m, key(' '));
    assert!(
        m.marks.chosen.is_none(),
        "a hand mark: the marks are the agent's own choice"
    );
    update(&mut m, code(crossterm::event::KeyCode::Esc));
    assert!(m.marks.is_empty() && m.marks.chosen.is_none());

    let mut m = triage_model(30, "All");
    update(&mut m, key('*'));
    assert!(m.marks.chosen.is_none(), "All has no rules to check");
}
