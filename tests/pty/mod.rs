//! The binary in a pseudo-terminal: start it, watch its screen (vt100),
//! type into it, wait for it to end. Shared by the pty test binaries that
//! declare `mod pty;` (not every one uses every helper).
#![allow(dead_code)]

use std::io::Write;
use std::num::NonZeroU16;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

/// What the app wrote: the parsed screen and the raw bytes.
pub struct Screen {
    pub parser: vt100::Parser,
    pub raw: Vec<u8>,
}

/// A running binary in a pseudo-terminal of `rows` x `cols`.
pub struct Tui {
    pub child: Box<dyn Child + Send + Sync>,
    pub master: Option<Box<dyn MasterPty + Send>>,
    pub writer: Option<Box<dyn Write + Send>>,
    pub screen: Arc<Mutex<Screen>>,
    pub reader: Option<std::thread::JoinHandle<()>>,
    stop: Arc<AtomicBool>,
}

/// The binary with a clean environment: its own log, cache, config and
/// home in `tmp`, no account from the environment.
pub fn command(tmp: &Path, args: &[&str]) -> CommandBuilder {
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_frontdesk"));
    cmd.args(args);
    std::fs::create_dir_all(tmp.join("home")).expect("a home");
    cmd.cwd(tmp);
    cmd.env("FRONTDESK_LOG", tmp.join("frontdesk.log"));
    cmd.env("XDG_CACHE_HOME", tmp.join("cache"));
    cmd.env("XDG_CONFIG_HOME", tmp.join("config"));
    cmd.env("XDG_STATE_HOME", tmp.join("state"));
    cmd.env("HOME", tmp.join("home"));
    cmd.env("TERM", "xterm-256color");
    // No image-terminal query, even when the tests run inside kitty or
    // iTerm2 (their variables are inherited): the pty answers nothing.
    cmd.env("FRONTDESK_IMAGE_PROTOCOL", "off");
    for k in [
        "FRONTDESK_BASE_URL",
        "FRONTDESK_API_KEY",
        "FRONTDESK_USER_UUID",
        "FRONTDESK_USER_EMAIL",
        "FRONTDESK_PROFILE",
        "FRONTDESK_CONFIG",
    ] {
        cmd.env_remove(k);
    }
    cmd
}

impl Tui {
    pub fn start(cmd: CommandBuilder, rows: u16, cols: u16) -> Tui {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pty");
        let child = pair.slave.spawn_command(cmd).expect("the binary starts");
        drop(pair.slave);
        let screen = Arc::new(Mutex::new(Screen {
            parser: vt100::Parser::new(NonZeroU16::new(rows).unwrap(), NonZeroU16::new(cols).unwrap(), 0),
            raw: Vec::new(),
        }));
        // The reader borrows the master's descriptor rather than a copy of
        // it: closing the master must close the terminal (a hang-up), which
        // a second open descriptor would prevent.
        let fd = pair.master.as_raw_fd().expect("a descriptor");
        let stop = Arc::new(AtomicBool::new(false));
        let (feed, stopped) = (screen.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while !stopped.load(Ordering::SeqCst) {
                let mut poll = libc::pollfd {
                    fd,
                    events: libc::POLLIN,
                    revents: 0,
                };
                // SAFETY: one valid pollfd; the master outlives this thread
                // (it is closed only after the thread is joined).
                let ready = unsafe { libc::poll(&mut poll, 1, 50) };
                if ready <= 0 {
                    continue;
                }
                // SAFETY: reads into a buffer of its length.
                let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
                if n <= 0 {
                    break;
                }
                let mut s = feed.lock().unwrap();
                s.parser.process(&buf[..n as usize]);
                s.raw.extend_from_slice(&buf[..n as usize]);
            }
        });
        let writer = pair.master.take_writer().expect("a writer");
        Tui {
            child,
            master: Some(pair.master),
            writer: Some(writer),
            screen,
            reader: Some(thread),
            stop,
        }
    }

    pub fn pid(&self) -> i32 {
        self.child.process_id().expect("a pid") as i32
    }

    /// Types `bytes`.
    pub fn press(&mut self, bytes: &[u8]) {
        let w = self.writer.as_mut().expect("the terminal is open");
        w.write_all(bytes).unwrap();
        w.flush().unwrap();
    }

    /// Waits (bounded) until the screen satisfies `ok`.
    pub fn wait_for(&self, what: &str, limit: Duration, ok: impl Fn(&vt100::Screen) -> bool) {
        let end = Instant::now() + limit;
        loop {
            {
                let s = self.screen.lock().unwrap();
                if ok(s.parser.screen()) {
                    return;
                }
                if Instant::now() > end {
                    panic!(
                        "timed out waiting for {what}; screen:\n{}",
                        s.parser.screen().contents()
                    );
                }
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits (bounded) for the process to end; its exit code.
    pub fn wait_exit(&mut self, limit: Duration) -> u32 {
        let end = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.exit_code();
            }
            assert!(Instant::now() < end, "frontdesk did not exit");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Closes the terminal's master side: the hang-up an SSH drop or a
    /// closed window makes.
    pub fn hang_up(&mut self) {
        self.stop_reading();
        self.writer = None;
        self.master = None;
    }

    fn stop_reading(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }

    /// Ends the app if it still runs, reads what it wrote to the end and
    /// closes the terminal; every byte written.
    pub fn finish(mut self) -> Vec<u8> {
        // What the app wrote before it ended is read to the end first.
        if self.child.try_wait().unwrap().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
        self.hang_up();
        self.screen.lock().unwrap().raw.clone()
    }
}

/// The log file's last non-empty line.
pub fn last_log_line(tmp: &Path) -> String {
    let log = std::fs::read_to_string(tmp.join("frontdesk.log")).unwrap_or_default();
    log.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .to_string()
}
