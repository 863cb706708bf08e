use super::Scroll;

fn at(selected: usize, offset: usize) -> Scroll {
    Scroll { selected, offset }
}

#[test]
fn moving_down_past_the_window_scrolls_by_one_row() {
    let mut s = Scroll::default();
    for _ in 0..5 {
        s.move_by(1, 20, 5);
    }
    assert_eq!(s, at(5, 1));
    s.move_by(-3, 20, 5);
    assert_eq!(s, at(2, 1));
    s.move_by(-3, 20, 5);
    assert_eq!(s, at(0, 0));
}

#[test]
fn the_ends_stop_the_selection() {
    let mut s = Scroll::default();
    s.move_by(-1, 10, 4);
    assert_eq!(s, at(0, 0));
    s.select(usize::MAX, 10, 4);
    assert_eq!(s, at(9, 6));
    s.move_by(1, 10, 4);
    assert_eq!(s, at(9, 6));
}

#[test]
fn a_page_moves_one_window() {
    let mut s = Scroll::default();
    s.page(1, 30, 10);
    assert_eq!(s, at(10, 1));
    s.page(1, 30, 10);
    assert_eq!(s, at(20, 11));
    s.page(1, 30, 10);
    assert_eq!(s, at(29, 20));
    s.page(-1, 30, 10);
    assert_eq!(s, at(19, 19));
}

#[test]
fn a_shrinking_list_pulls_the_selection_and_window_back() {
    let mut s = at(40, 35);
    s.clamp(12, 10);
    assert_eq!(s, at(11, 2), "the last row selected, the window full");
    s.clamp(0, 10);
    assert_eq!(s, at(0, 0));
}

#[test]
fn a_taller_window_shows_rows_above_instead_of_blank_rows_below() {
    let mut s = at(9, 8);
    s.clamp(10, 5);
    assert_eq!(s, at(9, 5));
    assert_eq!(s.visible(10, 5), 5..10);
}

#[test]
fn visible_is_the_clamped_window_and_changes_nothing() {
    let s = at(3, 0);
    assert_eq!(s.visible(100, 10), 0..10);
    assert_eq!(s.visible(2, 10), 0..2);
    assert_eq!(at(50, 0).visible(100, 10), 41..51);
    assert_eq!(s, at(3, 0));
}

#[test]
fn a_zero_height_window_acts_as_one_row() {
    let mut s = Scroll::default();
    s.move_by(3, 10, 0);
    assert_eq!(s, at(3, 3));
}
