use super::*;

#[test]
fn refresh_key_redraw_quit_and_panes() {
    let mut m = model_with(20, 80, 24);
    let fx = update(&mut m, key('r'));
    assert!(list_fetch(&fx).is_some_and(|f| f.2 == ListFetch::Refresh));
    assert!(thread_fetch(&fx).is_none() || m.thread.loading.is_none());
    assert_eq!(update(&mut m, ctrl('l')), vec![Effect::Redraw]);
    update(&mut m, code(KeyCode::Tab));
    assert_eq!(m.focus, Pane::Thread);
    update(&mut m, code(KeyCode::Tab));
    assert_eq!(m.focus, Pane::Details);
    update(&mut m, code(KeyCode::BackTab));
    assert_eq!(m.focus, Pane::Thread);
    update(&mut m, key('q'));
    assert!(m.quit);
}

#[test]
fn a_run_summary_scrolls_and_closes_with_the_keys_the_config_binds() {
    let mut m = model_with(5, 80, 24);
    let bind = |action: &str, key: &str| crate::config::KeyEntry {
        action: action.into(),
        keys: vec![key.into()],
        at: "test".into(),
    };
    let (keys, problems) = crate::tui::keymap::Keymap::resolve(&[bind("next", "Z"), bind("cancel", "H")]);
    assert!(problems.is_empty(), "{problems:?}");
    m.keys = std::sync::Arc::new(keys);
    m.overlay = Some(Overlay::Summary(crate::tui::act::Summary {
        title: "closed".into(),
        counts: "0 done, 40 failed".into(),
        failures: (0..40).map(|i| format!("contact {i}: gone")).collect(),
        heading: "Failed:".into(),
        hint: None,
        scroll: 0,
    }));
    update(&mut m, key('Z'));
    assert!(
        matches!(&m.overlay, Some(Overlay::Summary(s)) if s.scroll == 1),
        "z scrolls the failures as it moves the list"
    );
    update(&mut m, key('H'));
    assert!(m.overlay.is_none(), "the key bound to cancel closes the summary");
}
