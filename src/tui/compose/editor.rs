//! The reply in `$VISUAL` or `$EDITOR`: the draft goes to a temp file
//! only its owner can read (0600), the editor runs on it, and what it
//! saved comes back. The app loop runs this (it owns the terminal, which
//! it hands over while the editor runs); nothing here touches the screen.
//!
//! The variable is split into a program and its arguments without a
//! shell: words separated by spaces, quotes (`'…'`, `"…"`) keep spaces in
//! one word, `\` escapes the next character outside single quotes.

use std::io::Write;
use std::process::Command;

/// When neither variable names an editor.
pub const NO_EDITOR: &str = "set $VISUAL or $EDITOR to edit the reply in an editor";

/// The editor to run: `$VISUAL`, else `$EDITOR` (an empty one is unset),
/// as program and arguments.
pub fn command(visual: Option<String>, editor: Option<String>) -> Result<Vec<String>, String> {
    let chosen = [visual, editor]
        .into_iter()
        .flatten()
        .find(|v| !v.trim().is_empty())
        .ok_or_else(|| NO_EDITOR.to_string())?;
    split(&chosen).ok_or_else(|| {
        format!(
            "cannot read the editor command {:?}: a quote is not closed",
            crate::text::sanitize_line(&chosen)
        )
    })
}

/// The editor named by the environment.
pub fn from_env() -> Result<Vec<String>, String> {
    let var = |name| std::env::var(name).ok();
    command(var("VISUAL"), var("EDITOR"))
}

/// Splits a command line into words, as a shell would without expanding
/// anything; `None` when a quote is left open.
pub fn split(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => w.push(c),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => w.push(chars.next()?),
                        c => w.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).push(chars.next()?),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Some(words)
}

/// Runs `cmd` on a 0600 temp file holding `text` and waits for it: on a
/// zero exit, the file's text (one trailing newline trimmed); otherwise
/// why not. The file is removed either way. The editor inherits the
/// terminal: the caller hands it over first.
pub fn edit(cmd: &[String], text: &str) -> Result<String, String> {
    let (program, args) = cmd.split_first().ok_or_else(|| NO_EDITOR.to_string())?;
    // tempfile makes it 0600 on unix; the name ends in .txt for the editor.
    let mut file = tempfile::Builder::new()
        .prefix("frontdesk-reply-")
        .suffix(".txt")
        .tempfile()
        .map_err(|e| format!("cannot write the draft for the editor: {e}"))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| format!("cannot write the draft for the editor: {e}"))?;
    let shown = crate::text::sanitize_line(program);
    let status = Command::new(program)
        .args(args)
        .arg(file.path())
        .status()
        .map_err(|e| format!("cannot run {shown}: {e}"))?;
    if !status.success() {
        let how = match status.code() {
            Some(code) => format!("exited with status {code}"),
            None => "was stopped by a signal".to_string(),
        };
        return Err(format!("{shown} {how}: the draft is as it was"));
    }
    // Read by path: an editor may save by writing a new file over it.
    let edited =
        std::fs::read_to_string(file.path()).map_err(|e| format!("cannot read back what {shown} saved: {e}"))?;
    let edited = edited
        .strip_suffix("\r\n")
        .or_else(|| edited.strip_suffix('\n'))
        .unwrap_or(&edited);
    Ok(edited.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        split(line).unwrap()
    }

    #[test]
    fn the_variable_is_split_into_words_without_a_shell() {
        assert_eq!(words("vim"), ["vim"]);
        assert_eq!(words("  code --wait  "), ["code", "--wait"]);
        assert_eq!(
            words(r#"'/opt/my editor/ed' -c "set tw=72" a\ b"#),
            ["/opt/my editor/ed", "-c", "set tw=72", "a b"]
        );
        assert_eq!(words("ed ''"), ["ed", ""]);
        assert_eq!(split("vim 'open"), None);
        assert_eq!(split("vim \"open"), None);
    }

    #[test]
    fn visual_comes_first_and_neither_is_said() {
        let s = |v: &str| Some(v.to_string());
        assert_eq!(command(s("nano"), s("vi")).unwrap(), ["nano"]);
        assert_eq!(command(s(" "), s("vi -n")).unwrap(), ["vi", "-n"]);
        assert_eq!(command(None, None).unwrap_err(), NO_EDITOR);
        assert_eq!(command(s(""), s("")).unwrap_err(), NO_EDITOR);
    }

    /// A script with a shebang that runs `body` on its argument ($1).
    fn script(dir: &std::path::Path, name: &str, body: &str) -> String {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path.display().to_string()
    }

    #[test]
    fn the_editor_edits_a_private_file_that_goes_afterwards() {
        let dir = tempfile::tempdir().unwrap();
        let seen = dir.path().join("seen");
        let body = format!(
            "stat -c %a \"$1\" > {seen}; echo \"$1\" >> {seen}; printf '\\nedited\\n' >> \"$1\"",
            seen = seen.display()
        );
        let ed = script(dir.path(), "ed", &body);
        assert_eq!(edit(&[ed], "hello").unwrap(), "hello\nedited");
        let seen = std::fs::read_to_string(&seen).unwrap();
        let mut lines = seen.lines();
        assert_eq!(lines.next(), Some("600"), "{seen}");
        let path = lines.next().unwrap();
        assert!(!std::path::Path::new(path).exists(), "{path} is left behind");
    }

    #[test]
    fn an_editor_that_fails_changes_nothing_and_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let ed = script(dir.path(), "ed", "echo changed > \"$1\"; exit 3");
        let e = edit(&[ed], "hello").unwrap_err();
        assert!(e.contains("exited with status 3") && e.contains("as it was"), "{e}");
        let e = edit(&[dir.path().join("missing").display().to_string()], "x").unwrap_err();
        assert!(e.starts_with("cannot run"), "{e}");
    }
}
