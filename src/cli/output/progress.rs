//! Progress of a long command on stderr. On a terminal: an indicatif bar.
//! Off one (a log, a CI job, a pipe's stderr): one plain line every few
//! seconds ("frontdesk: building the local index: 4,200 of ~10,000 contacts
//! (12 s)"), so a long walk is never silent. stdout is never touched.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use crate::tui::widgets::thousands;

/// Between two progress lines off a terminal.
pub const LINE_EVERY: Duration = Duration::from_secs(5);
/// Overrides [`LINE_EVERY`] (a duration: `500ms`, `10s`); tests lower it.
pub const LINE_EVERY_ENV: &str = "FRONTDESK_PROGRESS_EVERY";

/// How a command shows its progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgressMode {
    /// stderr is a terminal: a bar.
    Bar,
    /// stderr is not a terminal: a line this often.
    Lines(Duration),
    /// Nothing (tests writing to buffers, the bench).
    Off,
}

impl ProgressMode {
    /// The mode for this process's stderr; `every` is the environment's
    /// override of the line interval (a bad one is a warning and the
    /// default).
    pub fn for_stderr(is_terminal: bool, every: Option<String>) -> (ProgressMode, Option<String>) {
        if is_terminal {
            return (ProgressMode::Bar, None);
        }
        match every.filter(|s| !s.trim().is_empty()) {
            None => (ProgressMode::Lines(LINE_EVERY), None),
            Some(s) => match humantime::parse_duration(s.trim()) {
                Ok(d) if !d.is_zero() => (ProgressMode::Lines(d), None),
                _ => (
                    ProgressMode::Lines(LINE_EVERY),
                    Some(format!(
                        "{LINE_EVERY_ENV}={}: not a duration such as 5s or 500ms; progress every {} s",
                        crate::text::sanitize_line(&s),
                        LINE_EVERY.as_secs()
                    )),
                ),
            },
        }
    }
}

/// Counts shared with the line writer.
#[derive(Default)]
struct Counts {
    done: AtomicU64,
    /// 0: not known.
    of: AtomicU64,
}

/// Progress of one step; the bar's calls (`set_length`, `set_position`,
/// `inc`, `finish_and_clear`). Lines stop when it is finished or dropped.
pub struct Progress {
    bar: indicatif::ProgressBar,
    counts: Arc<Counts>,
    stop: Option<Sender<()>>,
    writer: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// `what` names the step ("syncing contacts"); `unit` what is counted
    /// ("contacts").
    pub fn new(mode: ProgressMode, what: &str, unit: &str) -> Progress {
        let bar = match mode {
            ProgressMode::Bar => {
                let pb = indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
                if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg}: {human_pos} {elapsed}") {
                    pb.set_style(style);
                }
                pb.set_message(what.to_string());
                pb.enable_steady_tick(Duration::from_millis(120));
                pb
            }
            _ => indicatif::ProgressBar::hidden(),
        };
        Progress::with_bar(mode, bar, what, unit)
    }

    /// With a bar styled by the caller (shown only in [`ProgressMode::Bar`]).
    pub fn with_bar(mode: ProgressMode, bar: indicatif::ProgressBar, what: &str, unit: &str) -> Progress {
        let counts = Arc::new(Counts::default());
        if let Some(n) = bar.length() {
            counts.of.store(n, Ordering::Relaxed);
        }
        let (stop, writer) = match mode {
            ProgressMode::Lines(every) => {
                let (tx, rx) = std::sync::mpsc::channel::<()>();
                let shared = counts.clone();
                let (what, unit) = (what.to_string(), unit.to_string());
                let started = Instant::now();
                let thread = std::thread::spawn(move || {
                    // Until the sender is dropped: a line each interval.
                    while let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(every) {
                        let done = shared.done.load(Ordering::Relaxed);
                        let of = shared.of.load(Ordering::Relaxed);
                        let line = line(&what, unit.as_str(), done, of, started.elapsed());
                        let _ = writeln!(std::io::stderr(), "{line}");
                    }
                });
                (Some(tx), Some(thread))
            }
            _ => (None, None),
        };
        Progress {
            bar,
            counts,
            stop,
            writer,
        }
    }

    pub fn set_length(&self, n: u64) {
        self.counts.of.store(n, Ordering::Relaxed);
        self.bar.set_length(n);
    }

    pub fn set_position(&self, n: u64) {
        self.counts.done.store(n, Ordering::Relaxed);
        self.bar.set_position(n);
    }

    pub fn inc(&self, n: u64) {
        self.counts.done.fetch_add(n, Ordering::Relaxed);
        self.bar.inc(n);
    }

    /// Removes the bar and stops the lines.
    pub fn finish_and_clear(&mut self) {
        self.bar.finish_and_clear();
        self.stop_lines();
    }

    fn stop_lines(&mut self) {
        self.stop = None;
        if let Some(t) = self.writer.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop_lines();
    }
}

/// One progress line: `frontdesk: WHAT: 4,200 of ~10,000 UNIT (12 s)`.
pub fn line(what: &str, unit: &str, done: u64, of: u64, elapsed: Duration) -> String {
    let count = if of > done {
        format!("{} of ~{} {unit}", thousands(done), thousands(of))
    } else {
        format!("{} {unit} so far", thousands(done))
    };
    format!("frontdesk: {what}: {count} ({} s)", elapsed.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_says_how_far_and_of_how_many() {
        let l = line("views", "contacts", 4200, 10_000, Duration::from_secs(12));
        assert_eq!(l, "frontdesk: views: 4,200 of ~10,000 contacts (12 s)");
        let l = line("contacts list", "received", 120, 0, Duration::from_secs(3));
        assert_eq!(l, "frontdesk: contacts list: 120 received so far (3 s)");
    }

    #[test]
    fn the_interval_comes_from_the_environment_or_the_default() {
        assert_eq!(ProgressMode::for_stderr(true, None).0, ProgressMode::Bar);
        assert_eq!(ProgressMode::for_stderr(false, None).0, ProgressMode::Lines(LINE_EVERY));
        let (mode, warning) = ProgressMode::for_stderr(false, Some("250ms".into()));
        assert_eq!((mode, warning), (ProgressMode::Lines(Duration::from_millis(250)), None));
        let (mode, warning) = ProgressMode::for_stderr(false, Some("soon\u{1b}[2J".into()));
        assert_eq!(mode, ProgressMode::Lines(LINE_EVERY));
        let warning = warning.expect("a warning");
        assert!(!warning.contains('\u{1b}'), "{warning}");
    }
}
