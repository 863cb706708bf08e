//! Keys outside overlays and forms: counts, the keymap's actions, and
//! the periodic refresh they share with the loop.

use crate::tui::inbox::{InboxEffect, marking};
use crossterm::event::KeyEvent;

use super::call::call;
use super::{actions, bulk, index, list, many, overlays, undo, views};
use crate::tui::compose;
use crate::tui::details;
use crate::tui::effect::Effect;
use crate::tui::keymap::Action;
use crate::tui::model::{Model, Pane, ToastKind, Top};
use crate::tui::{account, thread};

pub(crate) fn on_key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) {
    // The layer on screen takes the key: one that left the screen (the
    // selection moved, a narrow screen switched panes) never does.
    match model.top() {
        Top::Overlay => {
            if let Some(action) = overlays::key(model, key, fx) {
                run_action(model, action, fx);
            }
        }
        Top::Account => call!(model, fx, account, Effect::Account, |st, cx, out| account::key(
            st, cx, out, key
        )),
        Top::Popup => {
            call!(model, fx, thread, Effect::Thread, |st, cx, out| thread::popup_key(
                st, cx, out, key
            ));
        }
        // What a slice's screen leaves (help, the palette) is global.
        Top::Slice => {
            if !super::slices::key(model, key, fx) {
                panes_key(model, key, fx);
            }
        }
        Top::ComposeStage | Top::Composer => {
            // A snippet's {{agent.name}}: my name, once the team members
            // (or the hub) told it.
            let agent = model.agent_name();
            call!(model, fx, compose, Effect::Compose, |st, cx, out| compose::key(
                st,
                cx,
                out,
                key,
                agent.as_deref()
            ))
        }
        Top::Search => list::search_key(model, key, fx),
        Top::Panes => panes_key(model, key, fx),
    }
}

/// A key on the panes: a count, a view's digit or the keymap's action.
fn panes_key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) {
    if let Some(n) = crate::tui::keymap::count_digit(&model.keys, &key, model.count) {
        // A lone 1…9 names a view, unless a motion follows it (`5j`).
        model.views.digit = match model.count {
            None if n <= 9 => {
                let id = model.next_id();
                fx.push(Effect::Inbox(InboxEffect::CountTimeout {
                    id,
                    after: views::DIGIT_WAIT,
                }));
                Some((n as usize, id))
            }
            _ => None,
        };
        model.count = Some(n);
        return;
    }
    let action = model.keys.action_for(&key);
    if let Some((n, _)) = model.views.digit.take()
        && !action.is_some_and(|a| a.takes_count())
    {
        model.count = None;
        views::switch(model, n - 1, fx);
        // Enter after a digit only confirms the view.
        if action == Some(Action::Open) {
            return;
        }
    }
    let count = model.count.take().unwrap_or(1);
    if let Some(action) = action {
        let times = if action.takes_count() { count } else { 1 };
        for _ in 0..times {
            run_action(model, action, fx);
        }
    }
}

/// Runs one action: from a key or from the palette.
pub fn run_action(model: &mut Model, action: Action, fx: &mut Vec<Effect>) {
    if many::on_marks(model, action, fx) || super::slices::action(model, action, fx) {
        return;
    }
    match action {
        Action::MoveDown | Action::MoveUp | Action::Top | Action::Bottom | Action::PageDown | Action::PageUp => {
            match model.focus {
                Pane::List => list::move_selection(model, action, fx),
                Pane::Thread => call!(model, fx, thread, Effect::Thread, |st, cx, out| thread::scroll(
                    st, cx, out, action
                )),
                Pane::Details => details::scroll(&mut model.details, action),
            }
        }
        Action::NextPane | Action::PrevPane => {
            let i = Pane::ALL.iter().position(|p| *p == model.focus).unwrap_or(0);
            let n = if action == Action::NextPane {
                (i + 1) % 3
            } else {
                (i + 2) % 3
            };
            model.focus = Pane::ALL[n];
        }
        Action::Open if model.focus == Pane::List && !model.is_wide() => model.focus = Pane::Thread,
        Action::Search => {
            // The search line is in the list: on a narrow screen it shows.
            if !model.is_wide() {
                model.focus = Pane::List;
            }
            super::search::start_search(model)
        }
        Action::Filter => views::open_filter(model),
        Action::ServerFilter => actions::open_filter(model),
        Action::NextView => views::step(model, true, fx),
        Action::PrevView => views::step(model, false, fx),
        Action::ToggleClosed => actions::toggle_closed(model, false, fx),
        Action::CloseAndNext => actions::toggle_closed(model, true, fx),
        // T in the thread moves the conversation to a funnel; elsewhere it sets the team.
        Action::Team if model.focus == Pane::Thread => {
            call!(model, fx, thread, Effect::Thread, |st, cx, out| thread::open_funnels(
                st, cx, out
            ))
        }
        // N in the thread writes an internal note; elsewhere it makes a contact.
        Action::NewContact if model.focus == Pane::Thread => {
            call!(model, fx, thread, Effect::Thread, |st, cx, out| thread::open_note(
                st, cx, out
            ))
        }
        Action::Edit | Action::Tags | Action::Assign | Action::Team | Action::Note | Action::NewContact => {
            actions::open_form(model, action)
        }
        Action::Bot => call!(model, fx, details, Effect::Details, |st, cx, out| details::toggle_bot(
            st, cx, out
        )),
        Action::Reply => {
            super::select::show_selected(model, fx);
            call!(model, fx, compose, Effect::Compose, |st, cx, out| compose::open(
                st, cx, out
            ))
        }
        Action::Availability => call!(model, fx, details, Effect::Details, |st, _cx, out| {
            details::toggle_availability(st, out)
        }),
        Action::CustomStatus => {
            let picker = call!(model, fx, details, Effect::Details, |st, _cx, out| {
                details::custom_status_picker(st, out)
            });
            if let Some(p) = picker {
                model.overlay = Some(crate::tui::model::Overlay::CustomStatus(p));
            }
        }
        Action::CopyLink => call!(model, fx, details, Effect::Details, |st, cx, out| details::copy_link(
            st, cx, out
        )),
        Action::Refresh => {
            refresh(model, true, fx);
            let now = model.now;
            model.status.push(ToastKind::Info, "refreshing…", now);
        }
        Action::Help => model.overlay = Some(crate::tui::model::Overlay::Help { scroll: 0 }),
        Action::Palette => overlays::open_palette(model),
        Action::Account => call!(model, fx, account, Effect::Account, |st, cx, out| account::open(
            st, cx, out
        )),
        Action::Redraw => fx.push(Effect::Redraw),
        // Esc stops a run first, then drops the marks, then the search.
        Action::Cancel => {
            if model.act.bulk.is_some() {
                bulk::cancel(model, fx);
            } else if marking::clear(&mut model.marks) {
            } else if model.list.view.search.is_some() {
                super::search::clear_search(model, fx);
            }
        }
        Action::Mark => {
            if call!(model, fx, inbox, Effect::Inbox, |st, cx, out| marking::toggle(
                st, cx, out
            )) {
                list::move_selection(model, Action::MoveDown, fx);
            }
        }
        Action::MarkRange => call!(model, fx, inbox, Effect::Inbox, |st, cx, out| marking::range(
            st, cx, out
        )),
        Action::MarkAll => call!(model, fx, inbox, Effect::Inbox, |st, cx, out| marking::all(st, cx, out)),
        Action::Repeat => many::repeat(model, fx),
        Action::Quit => model.quit = true,
        Action::DeleteMessage => call!(model, fx, thread, Effect::Thread, |st, cx, out| thread::ask_delete(
            st, cx, out
        )),
        Action::MessageInfo => call!(model, fx, thread, Effect::Thread, |st, cx, out| thread::open_info(
            st, cx, out
        )),
        Action::OpenLink => call!(model, fx, thread, Effect::Thread, |st, cx, out| thread::open_link(
            st, cx, out
        )),
        Action::Undo => undo::undo_last(model, fx),
        Action::Macro(i) => super::bulk::run_macro(model, i, false, fx),
        Action::History => undo::open_history(model, fx),
        // The registry's slices answered theirs above.
        _ => {}
    }
}

/// The periodic refresh: an incremental pass of the index (or the first
/// page, when a filter shows the API's walk) and the open thread.
pub(crate) fn refresh(model: &mut Model, forced: bool, fx: &mut Vec<Effect>) {
    if index::backs_list(model) {
        fx.push(Effect::Index(crate::tui::index_worker::IndexCmd::Incremental));
        // The pass says when the open conversation has a new message (its
        // lastMessageAt moves): the thread is fetched then, not on every
        // tick. A server that does not send lastMessageAt gets the tick;
        // `r` always fetches.
        if !forced && index::open_thread_followed(model) {
            return;
        }
    } else {
        list::fetch_refresh(model, fx);
    }
    call!(model, fx, thread, Effect::Thread, |st, _cx, out| thread::fetch_refresh(
        st, out
    ));
}
