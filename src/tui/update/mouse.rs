//! Mouse events (only with `mouse = true`): a click selects a list row or
//! a tab and focuses the pane under it; the wheel scrolls the pane under
//! the pointer, whichever pane has the focus. Overlays take no mouse input.

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::call::call;
use super::list;
use crate::tui::effect::Effect;
use crate::tui::keymap::Action;
use crate::tui::model::{Model, Pane, Top};

/// Rows one wheel notch moves.
const WHEEL_ROWS: usize = 3;

/// The pane whose area holds the pointer.
fn pane_at(model: &Model, at: Position) -> Option<Pane> {
    let a = model.areas();
    let inside = |r: Option<Rect>| r.is_some_and(|r| r.contains(at));
    if inside(a.list) {
        Some(Pane::List)
    } else if inside(a.thread) {
        Some(Pane::Thread)
    } else if inside(a.details) || inside(a.bot) || inside(a.availability) {
        Some(Pane::Details)
    } else {
        None
    }
}

/// The tab under the pointer on the narrow layout's tab strip (drawn as
/// `[Title]` or ` Title ` with one space after each).
fn tab_at(model: &Model, at: Position) -> Option<Pane> {
    let strip = model.areas().tabs?;
    if !strip.contains(at) {
        return None;
    }
    let mut x = strip.x;
    for p in Pane::ALL {
        let w = p.title().chars().count() as u16 + 2;
        if at.x >= x && at.x < x + w {
            return Some(p);
        }
        x += w + 1;
    }
    None
}

pub(crate) fn on_mouse(model: &mut Model, ev: MouseEvent, fx: &mut Vec<Effect>) {
    // Nothing under a layer that covers the panes is clicked through it.
    if matches!(
        model.top(),
        Top::Overlay | Top::Account | Top::ComposeStage | Top::Slice
    ) {
        return;
    }
    let at = Position::new(ev.column, ev.row);
    match ev.kind {
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let action = if ev.kind == MouseEventKind::ScrollDown {
                Action::MoveDown
            } else {
                Action::MoveUp
            };
            for _ in 0..WHEEL_ROWS {
                match pane_at(model, at) {
                    Some(Pane::List) => list::move_selection(model, action, fx),
                    Some(Pane::Thread) => call!(model, fx, thread, Effect::Thread, |st, cx, out| {
                        crate::tui::thread::scroll(st, cx, out, action)
                    }),
                    Some(Pane::Details) => crate::tui::details::scroll(&mut model.details, action),
                    None => {}
                }
            }
        }
        MouseEventKind::Down(MouseButton::Left) => {
            if let Some(tab) = tab_at(model, at) {
                model.focus = tab;
                return;
            }
            let Some(pane) = pane_at(model, at) else { return };
            model.focus = pane;
            if pane == Pane::List {
                super::inbox::inbox!(model, fx, |st, cx, out| {
                    crate::tui::inbox::update::moves::click(st, cx, out, at.y)
                });
            }
        }
        _ => {}
    }
}
