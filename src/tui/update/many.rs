//! Actions on the marked contacts: the keys that make sense for many
//! (`c`/`C`, `a`, `T`, `t`, `b`) apply to every mark, through a form when
//! they need an answer, after a `y` above [`CONFIRM_ABOVE`] contacts; `.`
//! repeats the last of them on the marks (or the selected contact).
//!
//! `c` with marks closes the open ones; when every marked conversation is
//! closed already it reopens them. `C` only closes.

use crate::api::Contact;
use crate::triage::bulk::Action;
use crate::tui::act::{self, CONFIRM_ABOVE, Confirm, Job, ManyForm, Purpose};
use crate::tui::effect::Effect;
use crate::tui::form::{self, Form};
use crate::tui::inbox::contact_list::Row;
use crate::tui::inbox::marking;
use crate::tui::keymap::Action as Key;
use crate::tui::model::{FormKind, Model, Overlay, ToastKind};

/// Runs `key` on the marks; false when there are none or the key does not
/// act on many (it then works on the selected contact as usual).
pub(crate) fn on_marks(model: &mut Model, key: Key, fx: &mut Vec<Effect>) -> bool {
    if model.marks.is_empty() {
        return false;
    }
    let many = matches!(
        key,
        Key::ToggleClosed | Key::CloseAndNext | Key::Assign | Key::Team | Key::Tags | Key::Bot | Key::Note | Key::Edit
    );
    if !many {
        return false;
    }
    marking::end_range(&mut model.marks, &model.list);
    let now = model.now;
    let n = model.marks.len();
    if model.act.bulk.is_some() {
        model
            .status
            .push(ToastKind::Info, "an action on many is running: Esc stops it", now);
        return true;
    }
    match key {
        Key::ToggleClosed | Key::CloseAndNext => close_or_reopen(model, key == Key::CloseAndNext, fx),
        Key::Assign => open_form(model, ManyForm::Assign),
        Key::Team => open_form(model, ManyForm::Team),
        Key::Tags => open_form(model, ManyForm::Tags),
        Key::Bot => open_form(model, ManyForm::Bot),
        _ => {
            let what = if key == Key::Note { "a note" } else { "an edit" };
            let text = format!("{what} is for one contact: Esc clears the {n} marks");
            model.status.push(ToastKind::Info, text, now);
        }
    }
    true
}

/// The marked rows, in list order.
fn marked(model: &Model) -> Vec<&Row> {
    marking::marked(&model.list, &model.marks)
}

fn close_or_reopen(model: &mut Model, only_close: bool, fx: &mut Vec<Effect>) {
    match marking::close_or_reopen(&model.list, &model.marks, only_close) {
        Ok(action) => go(model, vec![action], None, fx),
        Err(text) => {
            let now = model.now;
            model.status.push(ToastKind::Info, text, now);
        }
    }
}

fn open_form(model: &mut Model, which: ManyForm) {
    let n = model.marks.len();
    let k = &model.known;
    // The one-contact forms, for a contact called "12 contacts" with what
    // they all share.
    let rows = marked(model);
    let shared = |f: &dyn Fn(&Row) -> Option<String>| {
        let first = rows.first().and_then(|r| f(r));
        rows.iter().all(|r| f(r) == first).then_some(first).flatten()
    };
    let mut all = Contact {
        name: format!("{n} contacts"),
        ..Default::default()
    };
    all.assigned_user = shared(&|r| r.assigned_user.as_deref().map(str::to_string));
    let form = match which {
        ManyForm::Assign => form::assign_form(&all, &k.assignees()),
        ManyForm::Team => form::team_form(&all, &k.teams),
        ManyForm::Tags => form::tags_change_form(n, &k.tags),
        ManyForm::Bot => form::bot_form(n),
    };
    model.overlay = Some(Overlay::Form {
        kind: FormKind::Many(which),
        uuid: String::new(),
        form,
        saving: None,
    });
}

/// A form of an action on many was submitted: its actions, or why not.
pub(crate) fn submit(model: &mut Model, which: ManyForm, form: &Form, fx: &mut Vec<Effect>) -> Result<(), String> {
    let actions = match which {
        ManyForm::Assign => {
            let patch = form::assign_patch(&Contact::default(), form)?;
            match patch.assigned_user {
                Some(email) => vec![Action::Assign(email)],
                None => vec![Action::Unassign],
            }
        }
        ManyForm::Team => {
            let patch = form::team_patch(form, &model.known.teams)?;
            vec![Action::Team(patch.team_uuid.unwrap_or_default())]
        }
        ManyForm::Tags => {
            let (add, remove) = form::tags_change_value(form)?;
            let mut v = Vec::new();
            if !add.is_empty() {
                v.push(Action::Tag(add));
            }
            if !remove.is_empty() {
                v.push(Action::Untag(remove));
            }
            v
        }
        ManyForm::Bot => vec![Action::Bot(form::bot_value(form)?)],
    };
    model.overlay = None;
    go(model, actions, None, fx);
    Ok(())
}

/// `.`: the last action on many again, on the marks (after a partial
/// failure: the failed ones), or on the selected contact.
pub(crate) fn repeat(model: &mut Model, fx: &mut Vec<Effect>) {
    marking::end_range(&mut model.marks, &model.list);
    let now = model.now;
    if model.marks.last.is_empty() {
        return model
            .status
            .push(ToastKind::Info, "nothing to repeat: act on marks first", now);
    }
    if model.act.bulk.is_some() {
        return model
            .status
            .push(ToastKind::Info, "an action on many is running: Esc stops it", now);
    }
    let only = if model.marks.is_empty() {
        match model.list.selected_uuid() {
            Some(u) => Some(u),
            None => return model.status.push(ToastKind::Info, "select a contact first", now),
        }
    } else {
        None
    };
    let actions = model.marks.last.clone();
    go(model, actions, only, fx);
}

/// Jobs of `actions` on the marks (or `only`), then a run, or a question
/// first when they are many.
fn go(model: &mut Model, actions: Vec<Action>, only: Option<String>, fx: &mut Vec<Effect>) {
    let rows: Vec<&Row> = match &only {
        Some(u) => model.list.get(u).into_iter().collect(),
        None => marked(model),
    };
    let mut jobs = Vec::new();
    let mut contacts = std::collections::HashSet::new();
    let mut already = Vec::new();
    // Marks of a whole view are checked against it, as read just before
    // each write: a colleague may have answered or taken one since.
    let guard = match (&only, &model.marks.chosen) {
        (None, Some(filter)) => Some(Box::new(act::Guard::Chosen(crate::triage::write::Chosen {
            filter: filter.clone(),
            me: model.views.me.clone(),
            now: model.now,
        }))),
        _ => None,
    };
    for a in &actions {
        for r in &rows {
            // Closing a closed conversation (or reopening an open one) is
            // no work: a retry sends only what is left.
            // One of unknown state may be either: it is sent.
            let moot = !r.state_unknown && matches!((a, r.is_open()), (Action::Close, false) | (Action::Reopen, true));
            if moot {
                already.push(r.uuid.to_string());
                continue;
            }
            contacts.insert(r.uuid.to_string());
            jobs.push(Job {
                uuid: r.uuid.to_string(),
                name: crate::tui::text::sanitize_line(r.label()),
                action: a.clone(),
                before: r.to_contact(),
                bot_before: model.list.bots.get(&*r.uuid).copied(),
                guard: guard.clone(),
            });
        }
    }
    let (count, now) = (rows.len(), model.now);
    if jobs.is_empty() {
        let done = actions.first().map(Action::done).unwrap_or_default();
        let text = format!("nothing to do: {count} already {done}");
        return model.status.push(ToastKind::Info, text, now);
    }
    let doing = act::doing(&actions).to_string();
    let n = contacts.len();
    // Closing or assigning what a colleague is answering asks first.
    let busy = super::owner::busy_among(model, &actions, &jobs);
    if n > CONFIRM_ABOVE || busy.is_some() {
        let mut question = act::question(&model.known, &actions, n);
        if let Some(why) = busy {
            question = format!("{why}: {question}");
        }
        model.overlay = Some(Overlay::Confirm(Box::new(Confirm {
            question,
            doing,
            actions,
            jobs,
            already,
            rerun: None,
            single: None,
        })));
        return;
    }
    start(model, actions, &doing, jobs, &already, fx);
}

/// `y` on the question: the run starts.
pub(crate) fn confirmed(model: &mut Model, c: Confirm, fx: &mut Vec<Effect>) {
    if let Some(single) = c.single {
        return super::owner::confirmed(model, *single, fx);
    }
    if let Some(index) = c.rerun {
        return super::bulk::run_macro(model, index, true, fx);
    }
    start(model, c.actions, &c.doing, c.jobs, &c.already, fx);
}

/// The run starts; marked contacts that are already as asked lose their
/// mark (there is nothing to retry on them).
fn start(
    model: &mut Model,
    actions: Vec<Action>,
    doing: &str,
    jobs: Vec<Job>,
    already: &[String],
    fx: &mut Vec<Effect>,
) {
    marking::ran(&mut model.marks, actions, doing, already);
    super::bulk::start(model, Purpose::Act, doing, jobs, fx);
}
