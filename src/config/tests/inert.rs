//! Names, values and paths from the config file, flags or the environment
//! reach messages inert: the TUI shows warnings as toasts and the CLI
//! prints them, with no escape sequence or bidi control acted on.

use super::*;
use std::path::Path;

fn assert_inert(text: &str) {
    for c in text.chars() {
        let control = c < ' ' || c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c);
        let bidi = matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{061c}');
        assert!(!control && !bidi, "{c:?} in {text:?}");
    }
}

/// A config file in a folder named with an escape sequence.
fn hostile(dir: &Path, text: &str) -> PathBuf {
    let dir = dir.join("cfg\u{1b}]2;dir\u{7}\u{2066}");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("config.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn warnings_name_hostile_keys_and_paths_inertly() {
    let f = Fixture::new();
    let path = hostile(
        f.dir.path(),
        "\"\\u001b]2;pwned\\u0007\" = 1\n\
         [profiles.\"p\\u202e\"]\n\
         \"\\u001b[2J\" = 1\n\
         [keys]\n\
         \"\\u001b]2;act\\u0007\" = \"x\"\n\
         quit = 5\n\
         [[views]]\n\
         name = \"Mine\"\n\
         [[views]]\n\
         name = \"\\u001b]2;v\\u0007\"\n\
         \"\\u001b]2;k\\u0007\" = 1\n",
    );
    let s = load_with(&args(&path), &[]).unwrap();
    assert!(s.warnings.len() >= 4, "{:?}", s.warnings);
    for w in &s.warnings {
        assert_inert(w);
    }
    assert!(s.warnings.iter().any(|w| w.contains("␛]2;pwned␇")), "{:?}", s.warnings);
    // The keymap's problems name where the entry is: the path, inert.
    let (_, problems) = crate::tui::keymap::Keymap::resolve(&s.looks.keys);
    assert!(!problems.is_empty());
    for p in &problems {
        assert_inert(p);
    }
}

#[test]
fn errors_name_hostile_paths_and_values_inertly() {
    let f = Fixture::new();
    for text in [
        "timeout_secs = 0\n",
        "full_sync_minutes = 0\n",
        "api_key = \"k\"\n",
        "= broken\n",
        "user_email = \"not\\u001b]2;x\\u0007mail\"\n",
    ] {
        let path = hostile(f.dir.path(), text);
        let e = load_with(&args(&path), &[]).unwrap_err();
        assert_inert(&e.to_string());
    }
    let path = hostile(f.dir.path(), "bell = true\n");
    for (flag, env) in [(Some("\u{1b}]2;p\u{7}"), None), (None, Some("\u{202e}gnp.exe"))] {
        let mut a = args(&path);
        a.profile = flag.map(String::from);
        let env: Vec<(&str, &str)> = env.map(|e| (ENV_PROFILE, e)).into_iter().collect();
        let e = load_with(&a, &env).unwrap_err();
        assert_inert(&e.to_string());
    }
    // An explicit missing file is a warning naming the path.
    let missing = f.dir.path().join("\u{1b}[31mgone.toml");
    let s = load_with(&args(&missing), &[]).unwrap();
    for w in &s.warnings {
        assert_inert(w);
    }
}
