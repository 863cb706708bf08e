//! Counts before motions, and mouse events (issue 13).

use super::*;

#[test]
fn a_count_repeats_a_motion_once_and_is_forgotten() {
    let mut m = model_with(20, 160, 48);
    update(&mut m, key('5'));
    assert_eq!(m.list.view.selected, 0, "a digit alone does not move");
    update(&mut m, key('j'));
    assert_eq!(m.list.view.selected, 5);
    update(&mut m, key('j'));
    assert_eq!(m.list.view.selected, 6, "the count was used up");
    update(&mut m, key('1'));
    update(&mut m, key('2'));
    update(&mut m, key('k'));
    assert_eq!(m.list.view.selected, 0, "12k stops at the top");
    // gg goes to the top, as g does.
    update(&mut m, key('3'));
    update(&mut m, key('j'));
    update(&mut m, key('g'));
    update(&mut m, key('g'));
    assert_eq!(m.list.view.selected, 0);
    // A count before a non-motion runs it once.
    update(&mut m, key('4'));
    update(&mut m, key('?'));
    assert!(matches!(m.overlay, Some(Overlay::Help { .. })));
    assert_eq!(m.count, None);
}

fn mouse(kind: crossterm::event::MouseEventKind, column: u16, row: u16) -> Msg {
    Msg::Mouse(crossterm::event::MouseEvent {
        kind,
        column,
        row,
        modifiers: crossterm::event::KeyModifiers::NONE,
    })
}

fn click(column: u16, row: u16) -> Msg {
    mouse(
        crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
        column,
        row,
    )
}

#[test]
fn a_click_selects_the_row_under_it_and_focuses_its_pane() {
    let mut m = model_with(20, 160, 48);
    let list = m.areas().list.unwrap();
    let thread = m.areas().thread.unwrap();
    m.focus = Pane::Thread;
    // Border and header, then contact rows: the fifth row is contact 4.
    let fx = step(&mut m, click(list.x + 5, list.y + 2 + 4));
    assert_eq!(m.focus, Pane::List);
    assert_eq!(m.list.view.selected, 4);
    assert_eq!(thread_fetch(&fx).unwrap().1, contact(4).uuid, "the thread follows");
    // The header and the border select nothing.
    step(&mut m, click(list.x + 5, list.y + 1));
    assert_eq!(m.list.view.selected, 4);
    step(&mut m, click(thread.x + 3, thread.y + 3));
    assert_eq!(m.focus, Pane::Thread);
    assert_eq!(m.list.view.selected, 4, "a click elsewhere keeps the selection");
}

#[test]
fn the_wheel_scrolls_the_pane_under_the_pointer_not_the_focused_one() {
    use crossterm::event::MouseEventKind::{ScrollDown, ScrollUp};
    let mut m = model_with(20, 160, 48);
    m.focus = Pane::Details;
    let list = m.areas().list.unwrap();
    update(&mut m, mouse(ScrollDown, list.x + 3, list.y + 5));
    assert_eq!(m.list.view.selected, 3, "three rows a notch");
    assert_eq!(m.focus, Pane::Details, "the wheel does not move the focus");
    update(&mut m, mouse(ScrollUp, list.x + 3, list.y + 5));
    assert_eq!(m.list.view.selected, 0);
    let details = m.areas().details.unwrap();
    update(&mut m, mouse(ScrollDown, details.x + 2, details.y + 2));
    assert_eq!(m.details.scroll, 3);
    assert_eq!(m.list.view.selected, 0);
}

#[test]
fn a_click_on_a_tab_switches_the_narrow_pane() {
    let mut m = model_with(20, 80, 24);
    let tabs = m.areas().tabs.expect("narrow layout has tabs");
    // "[Contacts]  Thread   Details " : Thread starts at column 11.
    update(&mut m, click(tabs.x + 13, tabs.y));
    assert_eq!(m.focus, Pane::Thread);
    update(&mut m, click(tabs.x + 23, tabs.y));
    assert_eq!(m.focus, Pane::Details);
    update(&mut m, click(tabs.x + 2, tabs.y));
    assert_eq!(m.focus, Pane::List);
    // With an overlay open the mouse does nothing.
    update(&mut m, key('?'));
    update(&mut m, click(tabs.x + 13, tabs.y));
    assert_eq!(m.focus, Pane::List);
}
