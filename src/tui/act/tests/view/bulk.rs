//! Marks and actions on many on screen: marked rows (without colour too),
//! a run's progress in the status bar, the question and the summary.

use super::*;
use crate::api::ApiError;
use crate::tui::msg::Msg;

fn mark(m: &mut Model, rows: &[usize]) {
    for &i in rows {
        let uuid = m.list.row(i).unwrap().uuid.to_string();
        m.marks.insert(&uuid);
    }
}

/// The `Apply` requests among `fx`.
fn applies(fx: &[crate::tui::effect::Effect]) -> Vec<(u64, String)> {
    fx.iter()
        .filter_map(|e| match e {
            crate::tui::effect::Effect::Apply { id, uuid, .. } => Some((*id, uuid.clone())),
            _ => None,
        })
        .collect()
}

fn answer(m: &mut Model, (id, uuid): &(u64, String), ok: bool) -> Vec<crate::tui::effect::Effect> {
    let result = if ok {
        let mut c = m.list.contact(uuid).unwrap();
        c.closed_at = Some(now());
        Ok(c)
    } else {
        Err(ApiError::Server {
            status: 503,
            message: "the service is busy".into(),
        })
    };
    update(
        m,
        Msg::Applied {
            id: *id,
            uuid: uuid.clone(),
            answer: result.into(),
        },
    )
}

/// Runs the close of `rows` to its end; every third request fails.
fn close_with_failures(m: &mut Model, rows: &[usize]) {
    mark(m, rows);
    let mut out = applies(&update(m, key('c')));
    if matches!(m.overlay, Some(crate::tui::model::Overlay::Confirm(_))) {
        out = applies(&update(m, key('y')));
    }
    let mut n = 0;
    while let Some(a) = out.first().cloned() {
        out.remove(0);
        n += 1;
        out.extend(applies(&answer(m, &a, n % 3 != 0)));
    }
}

#[test]
fn marked_rows_and_the_count_at_both_sizes() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut m = rich(w, h);
        mark(&mut m, &[1, 2, 5]);
        let t = draw(&m);
        assert_snapshot!(format!("marked_{w}x{h}"), t.backend());
        let text = format!("{}", t.backend());
        assert!(text.contains("3 marked"), "{text}");
    }
}

#[test]
fn a_mark_reads_without_colour() {
    let mut m = rich(80, 24);
    mark(&mut m, &[2]);
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|f| crate::tui::view::view(&m, f, &Theme::mono())).unwrap();
    let text = format!("{}", t.backend());
    let row = text.lines().find(|l| l.contains("李小龙")).unwrap();
    assert!(row.contains(" *李小龙"), "{row}");
    let other = text.lines().find(|l| l.contains("Nguy")).unwrap();
    assert!(!other.contains('*'), "{other}");
}

#[test]
fn a_running_action_on_many_in_the_status_bar() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut m = rich(w, h);
        mark(&mut m, &[0, 1, 2, 3, 5, 6, 7]);
        let out = applies(&update(&mut m, key('c')));
        answer(&mut m, &out[0], true);
        let t = draw(&m);
        let text = format!("{}", t.backend());
        assert!(text.contains("closing 1/7"), "{text}");
        assert_snapshot!(format!("bulk_running_{w}x{h}"), t.backend());
    }
}

#[test]
fn the_question_above_twenty() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut m = model_with(40, w, h);
        m.list.paging.loading = None;
        let open: Vec<usize> = (0..40).filter(|i| i % 5 != 4).collect();
        mark(&mut m, &open);
        update(&mut m, key('c'));
        assert_snapshot!(format!("bulk_confirm_{w}x{h}"), draw(&m).backend());
    }
}

#[test]
fn the_summary_lists_the_failed_and_scrolls_when_long() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut m = rich(w, h);
        close_with_failures(&mut m, &[0, 1, 2, 3, 5, 6, 7]);
        assert_snapshot!(format!("bulk_summary_{w}x{h}"), draw(&m).backend());
    }
    // Forty failures do not fit 80x24: j scrolls them.
    let mut m = model_with(200, 80, 24);
    m.list.paging.loading = None;
    let open: Vec<usize> = (0..200).filter(|i| i % 5 != 4).take(120).collect();
    close_with_failures(&mut m, &open);
    let text = format!("{}", draw(&m).backend());
    assert!(text.contains("80 done · 40 failed"), "{text}");
    assert!(text.contains("1-"), "a scroll position: {text}");
    let first = |text: &str| text.lines().find(|l| l.contains('✗')).unwrap().to_string();
    let before = first(&text);
    update(&mut m, key('j'));
    let after = first(&format!("{}", draw(&m).backend()));
    assert_ne!(before, after, "j scrolls the failures");
}
