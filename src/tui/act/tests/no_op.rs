//! A run's summary counts what changed nothing as a no-op, as `history`
//! and `undo` do: an untag of an absent tag is not "done".

use super::*;
use crate::api::Contact;
use crate::triage::bulk::Action as Bulk;

/// Answers every `Apply` until the run ends, each as the service would.
fn answer_all(m: &mut Model, mut fx: Vec<Effect>) {
    while let Some((id, uuid, action)) = fx.iter().find_map(|e| match e {
        Effect::Apply { id, uuid, action, .. } => Some((*id, uuid.clone(), action.clone())),
        _ => None,
    }) {
        fx.retain(|e| !matches!(e, Effect::Apply { id: i, .. } if *i == id));
        let mut c: Contact = m.list.contact(&uuid).unwrap();
        if let Bulk::Untag(t) = &action {
            c.tags = crate::triage::bulk::without_tags(&c.tags, t);
        }
        fx.extend(update(
            m,
            Msg::Applied {
                id,
                uuid,
                answer: Ok(c).into(),
            },
        ));
    }
    assert!(m.act.bulk.is_none(), "the run ended");
}

#[test]
fn an_untag_of_an_absent_tag_is_a_no_op_in_the_runs_summary_not_done() {
    let mut m = model_with(20, 160, 48);
    // Contact 1 has urgent; 0 and 2 do not.
    for i in [0, 1, 2] {
        m.marks.insert(&contact(i).uuid);
    }
    update(&mut m, key('t'));
    update(&mut m, code(KeyCode::Tab));
    type_text(&mut m, "urgent");
    update(&mut m, code(KeyCode::Enter));
    let fx = submit(&mut m);
    answer_all(&mut m, fx);
    let text = &m.status.current().unwrap().text;
    assert!(text.contains("1 done, 2 no-op (already so)"), "{text}");
}
