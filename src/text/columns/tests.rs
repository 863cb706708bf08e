use super::*;

#[test]
fn everything_fits_as_wanted_when_there_is_room() {
    let cols = [
        Column::fixed(4, 1),
        Column {
            want: 10,
            min: 3,
            keep: 2,
        },
    ];
    assert_eq!(fit_columns(&cols, 40, 2), vec![Some(4), Some(10)]);
}

#[test]
fn the_widest_shrinkable_column_shrinks_first_down_to_its_floor() {
    let cols = [
        Column {
            want: 20,
            min: 8,
            keep: 9,
        },
        Column {
            want: 12,
            min: 8,
            keep: 9,
        },
        Column::fixed(32, u8::MAX),
    ];
    // 20 + 12 + 32 + 4 = 68 > 60: shrink by 8, widest first.
    assert_eq!(fit_columns(&cols, 60, 2), vec![Some(12), Some(12), Some(32)]);
    // Floors 8 + 8 + 32 + 4 = 52 fit at 52.
    assert_eq!(fit_columns(&cols, 52, 2), vec![Some(8), Some(8), Some(32)]);
}

#[test]
fn columns_are_hidden_least_important_first_and_rightmost_on_ties() {
    let cols = [
        Column::fixed(10, u8::MAX),
        Column::fixed(10, 3),
        Column::fixed(10, 1),
        Column::fixed(10, 3),
    ];
    assert_eq!(fit_columns(&cols, 32, 1), vec![Some(10), Some(10), None, Some(10)]);
    assert_eq!(fit_columns(&cols, 21, 1), vec![Some(10), Some(10), None, None]);
    assert_eq!(fit_columns(&cols, 20, 1), vec![Some(10), None, None, None]);
    // Never-hidden columns stay even when nothing fits.
    assert_eq!(fit_columns(&cols, 3, 1), vec![Some(10), None, None, None]);
}

#[test]
fn truncation_is_by_display_width() {
    assert_eq!(truncate_to_width("你好世界", 5), "你好…");
    assert_eq!(truncate_to_width("short", 10), "short");
}
