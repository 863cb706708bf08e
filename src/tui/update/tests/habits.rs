//! Counts before motions, and mouse events (issue 13).

use super::*;

#[test]
fn a_count_repeats_a_motion_once_and_is_forgotten() {
    let mut m = model_with(20, 160, 48);
    update(&mut m, key('5'));
    assert_eq!(m.list.selected, 0, "a digit alone does not move");
    update(&mut m, key('j'));
    assert_eq!(m.list.selected, 5);
    update(&mut m, key('j'));
    assert_eq!(m.list.selected, 6, "the count was used up");
    update(&mut m, key('1'));
    update(&mut m, key('2'));
    update(&mut m, key('k'));
    assert_eq!(m.list.selected, 0, "12k stops at the top");
    // gg goes to the top, as g does.
    update(&mut m, key('3'));
    update(&mut m, key('j'));
    update(&mut m, key('g'));
    update(&mut m, key('g'));
    assert_eq!(m.list.selected, 0);
    // A count before a non-motion runs it once.
    update(&mut m, key('4'));
    update(&mut m, key('?'));
    assert!(matches!(m.overlay, Some(Overlay::Help { .. })));
    assert_eq!(m.count, None);
}
