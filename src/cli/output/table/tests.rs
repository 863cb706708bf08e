use super::*;

#[test]
fn fitting_cuts_the_widest_columns_but_never_the_uuid() {
    let uuid = "0123456789abcdef0123456789abcdef".to_string();
    let mut rows = vec![vec![
        "高橋 翔太 with a very long name".to_string(),
        "a, b, c, d, e, f, g".to_string(),
        uuid.clone(),
    ]];
    assert_eq!(fit_columns(&["NAME", "TAGS", "UUID"], &mut rows, 60), vec![true; 3]);
    let total: usize = rows[0].iter().map(|c| crate::text::width(c)).sum::<usize>() + 4;
    assert!(total <= 60, "{rows:?}");
    assert_eq!(rows[0][2], uuid);
    assert!(rows[0][0].ends_with('…'));
}

#[test]
fn fitting_hides_columns_from_the_right_when_shrinking_is_not_enough() {
    let uuid = "0123456789abcdef0123456789abcdef".to_string();
    let headers = ["NAME", "PHONE", "SOURCE", "TAGS", "LAST ACTIVITY", "UUID"];
    let mut rows = vec![vec![
        "Anneliese Müller".to_string(),
        "+499120000140".to_string(),
        "messaging_app".to_string(),
        "beta, complaint, wholesale".to_string(),
        "2026-11-22 01:05".to_string(),
        uuid.clone(),
    ]];
    let keep = fit_columns(&headers, &mut rows, 70);
    assert_eq!(keep, vec![true, true, false, false, false, true]);
    let shown: usize = rows[0]
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(c, _)| crate::text::width(c))
        .sum();
    assert!(shown + 6 <= 70, "{rows:?}");
    assert_eq!(rows[0][5], uuid);
}

#[test]
fn table_is_aligned_without_trailing_spaces() {
    let rows = vec![
        vec!["Ann".to_string(), "1".to_string()],
        vec!["Bartholomew".to_string(), "\x1b[31m22".to_string()],
    ];
    let s = render_table(&["NAME", "N"], &rows, false);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("NAME"));
    let col = lines[0].find('N').map(|_| lines[0].rfind('N').unwrap()).unwrap();
    assert_eq!(lines[1].find('1'), Some(col));
    assert_eq!(lines[2].chars().nth(col), Some('␛'));
    assert!(lines.iter().all(|l| !l.ends_with(' ')));
    assert!(!s.contains('\x1b'));
}
