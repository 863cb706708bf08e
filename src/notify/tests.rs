use super::*;

#[test]
fn a_notification_is_osc_777_then_osc_9_then_the_bell() {
    let s = sequences("Ana", "where is my order?", Mux::None);
    assert_eq!(
        s,
        "\x1b]777;notify;Ana;where is my order?\x1b\\\x1b]9;Ana: where is my order?\x1b\\\x07"
    );
}

#[test]
fn tmux_and_screen_get_it_wrapped() {
    let t = sequences("Ana", "hi", Mux::Tmux);
    assert!(
        t.starts_with("\x1bPtmux;\x1b\x1b]777;notify;Ana;hi\x1b\x1b\\\x1b\\"),
        "{t:?}"
    );
    assert!(t.contains("\x1bPtmux;\x1b\x1b]9;Ana: hi\x1b\x1b\\\x1b\\"), "{t:?}");
    assert!(t.ends_with('\x07'));
    let s = sequences("Ana", "hi", Mux::Screen);
    assert!(s.starts_with("\x1bP\x1b]777;notify;Ana;hi\x1b\\\x1b\\"), "{s:?}");
}

#[test]
fn customer_text_cannot_end_the_sequence_or_add_fields() {
    let s = sequences("Evil\x1b]0;title\x07", "a;b\x1b\\c\nd\u{202e}", Mux::None);
    // Exactly the framing's own escapes: two OSC starts, two terminators, one bell.
    assert_eq!(s.matches('\x1b').count(), 4, "{s:?}");
    assert_eq!(s.matches('\x07').count(), 1, "{s:?}");
    assert!(s.starts_with("\x1b]777;notify;"));
    let fields: Vec<&str> = s.split('\x1b').nth(1).unwrap().split(';').collect();
    assert_eq!(fields.len(), 4, "title and body add no fields: {fields:?}");
    assert!(!s.contains('\u{202e}'));
    let long = "x".repeat(1000);
    assert_eq!(payload_text(&long).len(), MAX_CHARS);
}

#[test]
fn the_multiplexer_is_read_from_the_environment() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    };
    assert_eq!(
        Mux::detect(env(&[("TMUX", "/tmp/tmux-0/default,1,0"), ("TERM", "screen")])),
        Mux::Tmux
    );
    assert_eq!(Mux::detect(env(&[("STY", "1.pts-0")])), Mux::Screen);
    assert_eq!(Mux::detect(env(&[("TERM", "screen-256color")])), Mux::Screen);
    assert_eq!(Mux::detect(env(&[("TERM", "xterm-256color"), ("TMUX", "")])), Mux::None);
}

#[test]
fn the_command_gets_the_text_in_env_never_through_a_shell() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let script = format!(
        "printf '%s|%s' \"$FRONTDESK_NOTIFY_CONTACT\" \"$FRONTDESK_NOTIFY_TEXT\" > {}",
        out.display()
    );
    let argv = vec!["sh".to_string(), "-c".to_string(), script];
    let mut child = run_command(&argv, "Ana", "$(touch pwned); `id`").unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "Ana|$(touch pwned); `id`");
    assert!(!std::path::Path::new("pwned").exists());
    assert!(run_command(&[], "a", "b").unwrap_err().contains("empty"));
    let missing = run_command(&["/nonexistent/notifier".to_string()], "a", "b").unwrap_err();
    assert!(missing.contains("/nonexistent/notifier"), "{missing}");
}
