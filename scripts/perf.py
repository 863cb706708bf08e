#!/usr/bin/env python3
"""Measure the TUI as a user feels it: the release binary in a pseudo-terminal
against `frontdesk serve` on 127.0.0.1, keys in, screen out.

Reports, as a Markdown table, keystroke-to-frame p50/p99 (a key is written,
the time until the screen's content last changed before it went quiet),
idle CPU over a window (from /proc/PID/stat) and peak RSS (VmHWM), for the
situations of issue 10.

    cargo build --release
    pip install pyte            # the terminal emulator the script reads with
    python3 scripts/perf.py     # all situations, ~6-10 minutes on 2 cores
    python3 scripts/perf.py --only thread20,idle300 --samples 30

Nothing here asserts a number: it measures and prints.
"""

import argparse
import fcntl
import json
import os
import pty
import re
import secrets
import shutil
import signal
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time

try:
    import pyte
except ImportError:  # pragma: no cover - a hint, not a fallback
    sys.exit("perf.py needs pyte (a VT emulator): pip install pyte")

COLS, ROWS = 160, 48
API_KEY = "perf-" + secrets.token_hex(8)
CLK_TCK = os.sysconf("SC_CLK_TCK")
QUIET = 0.05  # a frame has settled once the screen is unchanged this long
TIMEOUT = 2.0  # a key that changes nothing within this is not a sample


class Server:
    """`frontdesk serve` on 127.0.0.1 with a free port."""

    def __init__(self, binary, workdir, contacts, db=None):
        self.manifest = os.path.join(workdir, f"manifest-{secrets.token_hex(4)}.json")
        cmd = [binary, "serve", "--addr", "127.0.0.1:0", "--manifest", self.manifest,
               "--contacts", str(contacts), "--no-activity", "--api-key", API_KEY]
        if db:
            cmd += ["--db", db]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.base_url = None
        deadline = time.time() + 600
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("frontdesk serve exited before it was ready")
            m = re.search(r"listening on (\S+)", line)
            if m:
                self.base_url = m.group(1)
                break
        if not self.base_url:
            raise RuntimeError("frontdesk serve did not start")
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Replying(pyte.Screen):
    """Answers the terminal's status queries the app may send."""

    def __init__(self, cols, rows, fd):
        super().__init__(cols, rows)
        self.fd = fd

    def write_process_input(self, data):
        os.write(self.fd, data.encode())


class Tui:
    """The app in a pseudo-terminal of COLS x ROWS, its screen kept by pyte."""

    def __init__(self, binary, server, workdir):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        env = {k: v for k, v in os.environ.items() if not k.startswith("FRONTDESK_") and k != "NO_COLOR"}
        env.update({
            "FRONTDESK_BASE_URL": server.base_url,
            "FRONTDESK_API_KEY": API_KEY,
            "FRONTDESK_LOG": os.path.join(workdir, "frontdesk.log"),
            "TERM": "xterm-256color",
            # The run's own local index (see big_list: a second start reads it).
            "XDG_CACHE_HOME": os.path.join(workdir, "cache"),
        })
        # An empty config file: a missing one is reported in a toast, and
        # its expiry would be taken for a key's frame.
        config = os.path.join(workdir, "empty-config.toml")
        open(config, "a").close()
        self.proc = subprocess.Popen([binary, "--config", config], stdin=slave, stdout=slave, stderr=slave,
                                     env=env, start_new_session=True)
        os.close(slave)
        self.fd = master
        self.screen = Replying(COLS, ROWS, master)
        self.stream = pyte.ByteStream(self.screen)
        self.lock = threading.Lock()
        self.text = ""
        self.changed_at = time.monotonic()
        self.changes = []  # monotonic times of every screen change
        self.alive = True
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                break
            if not data:
                break
            now = time.monotonic()
            with self.lock:
                self.stream.feed(data)
                text = self._text()
                if text != self.text:
                    self.text = text
                    self.changed_at = now
                    self.changes.append(now)
        self.alive = False

    def _text(self):
        # pyte's own `display` trips over empty cells (wide characters).
        cols = self.screen.columns
        return "\n".join("".join(row[x].data for x in range(cols))
                         for row in (self.screen.buffer[y] for y in range(self.screen.lines)))

    def snapshot(self):
        with self.lock:
            return self.text, self.changed_at

    def send(self, keys):
        os.write(self.fd, keys.encode() if isinstance(keys, str) else keys)

    def wait_for(self, pattern, timeout=60.0):
        """Waits until the screen matches `pattern`; returns the match."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = re.search(pattern, self.snapshot()[0])
            if m:
                return m
            time.sleep(0.01)
        raise TimeoutError(f"screen never showed {pattern!r}:\n{self.snapshot()[0]}")

    def settle(self, quiet=0.3, timeout=30.0):
        """Waits until the screen has not changed for `quiet` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if time.monotonic() - self.snapshot()[1] >= quiet:
                return
            time.sleep(0.01)

    def key(self, k):
        """Writes `k`; returns (seconds to the first screen change, seconds
        until the screen settled), or None when nothing changed."""
        self.settle(QUIET)
        before, _ = self.snapshot()
        t0 = time.monotonic()
        self.send(k)
        end = t0 + TIMEOUT
        settled = None
        while time.monotonic() < end:
            text, at = self.snapshot()
            if text != before and time.monotonic() - at >= QUIET:
                settled = at - t0
                break
            time.sleep(0.002)
        if settled is None:
            text, at = self.snapshot()
            if text == before:
                return None
            settled = at - t0
        with self.lock:
            first = next((c for c in self.changes if c >= t0), t0 + settled) - t0
            self.changes = [c for c in self.changes if c >= t0 + settled]
        return first, settled

    def cpu_seconds(self):
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def idle_cpu(self, seconds):
        """Percent of one core used while no key is pressed."""
        c0, t0 = self.cpu_seconds(), time.monotonic()
        time.sleep(seconds)
        return 100.0 * (self.cpu_seconds() - c0) / (time.monotonic() - t0)

    def status(self, field):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
        return 0

    def quit(self):
        if self.proc.poll() is None:
            self.send("q")
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        os.close(self.fd)


def pct(samples, p):
    s = sorted(samples)
    if not s:
        return float("nan")
    k = min(len(s) - 1, max(0, round(p / 100 * len(s) + 0.5) - 1))
    return s[k]


def keys(tui, key, n, reset=None, period=None):
    """`n` timed presses of `key`; when one changes nothing, `reset`
    (untimed). With `period`, `reset` comes every `period` presses too, so
    that `key` never reaches the end of what it moves through: a key that
    changes nothing would be timed by the next unrelated screen change (a
    refresh, the status bar's clock) and read as a slow frame."""
    out, misses = [], 0
    while len(out) < n and misses < n:
        if period and out and len(out) % period == 0 and reset is not None:
            tui.send(reset)
            tui.settle(0.3)
        dt = tui.key(key)
        if dt is None:
            misses += 1
            if reset is None:
                break
            tui.send(reset)
            tui.settle(0.3)
        else:
            out.append(dt)
    return out


def latency_row(samples):
    """The key's frame (first screen change): p50/p90/p99; and when the
    screen settled (results that land later, e.g. a search's matches)."""
    if not samples:
        return "no change seen"
    first = [f for f, _ in samples]
    settled = [s for _, s in samples]
    return (f"p50 {pct(first, 50) * 1000:.1f} ms, p90 {pct(first, 90) * 1000:.1f} ms, "
            f"p99 {pct(first, 99) * 1000:.1f} ms; settled p50 {pct(settled, 50) * 1000:.1f} ms, "
            f"p99 {pct(settled, 99) * 1000:.1f} ms (n={len(samples)})")


# ---------------------------------------------------------------- the data

def build_thread_db(binary, workdir, messages):
    """300 contacts; the newest holds `messages` messages, the next one 20."""
    db = os.path.join(workdir, "thread.db")
    Server(binary, workdir, 300, db=db).stop()
    conn = sqlite3.connect(db)
    ids = [r[0] for r in conn.execute("SELECT id FROM contacts ORDER BY last_activity DESC, id DESC LIMIT 2")]
    big, small = ids[0], ids[1]
    now = int(time.time() * 1000)
    for cid in (big, small):
        conn.execute("DELETE FROM messages WHERE contact_id = ?", (cid,))
    rows = []
    for cid, n, newest in ((big, messages, now - 60_000), (small, 20, now - 120_000)):
        for k in range(n):
            status = ("received", "sent", "received", "note")[k % 4]
            text = (f"message {k}: " + "the quick brown fox jumps over the lazy dog " * (1 + k % 5)).strip()
            uuid = None if status == "note" else secrets.token_hex(16)
            sender, recipient = ("+15550000001", "+15550000002") if status == "received" else ("+15550000002", "+15550000001")
            rows.append((uuid, cid, text, newest - (n - k) * 60_000, status, "whatsapp", sender, recipient))
    conn.executemany("INSERT INTO messages (uuid, contact_id, text, created_at, status, channel, sender, recipient)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    conn.execute("UPDATE contacts SET last_activity = ?, closed_at = NULL WHERE id = ?", (now, big))
    conn.execute("UPDATE contacts SET last_activity = ?, closed_at = NULL WHERE id = ?", (now - 1000, small))
    conn.commit()
    conn.close()
    return db


# ---------------------------------------------------------- the situations

def thread_situations(binary, workdir, args, rows):
    db = build_thread_db(binary, workdir, args.thread_messages)
    server = Server(binary, workdir, 300, db=db)
    tui = Tui(binary, server, workdir)
    started = time.monotonic()
    try:
        tui.wait_for(r"message \d+: ", 60)
        tui.settle(0.5)
        if "thread20" in args.only:
            tui.send("j")  # the second contact: 20 messages
            tui.wait_for(r"message 19: ", 30)
            tui.send("\t")
            tui.settle(0.5)
            rows.append(("Thread with 20 messages, `k`",
                         latency_row(keys(tui, "k", args.samples, reset="G", period=15))))
            tui.send("\x1b[Z")  # back to the list
            tui.settle(0.3)
            tui.send("k")
            tui.wait_for(rf"message {args.thread_messages - 1}: ", 30)
            tui.settle(0.5)
        if "thread20k" in args.only or "idlethread" in args.only:
            tui.send("\t")
            tui.settle(0.3)
            t0 = time.monotonic()
            while "start of conversation" not in tui.snapshot()[0]:
                if time.monotonic() - t0 > args.load_timeout:
                    raise TimeoutError("the thread did not load to its start")
                tui.key("g")
            loaded = time.monotonic() - t0
            tui.send("G")
            tui.settle(0.5)
            if "thread20k" in args.only:
                samples = keys(tui, "k", args.samples, reset="G")
                rows.append((f"Thread with all {args.thread_messages:,} messages loaded, `k`", latency_row(samples)))
                rows.append((f"Loading all {args.thread_messages:,} messages (`g` until the start)", f"{loaded:.1f} s"))
                tui.send("G")
                tui.settle(1.0)
            if "idlethread" in args.only:
                # Past the first start's trickle of last messages (see idle300).
                time.sleep(max(0.0, args.trickle - (time.monotonic() - started)))
                tui.settle(2.0)
                rows.append((f"Same thread open ({args.thread_messages:,}), idle {args.idle:.0f} s",
                             f"{tui.idle_cpu(args.idle):.2f} % of a core"))
            rows.append((f"Thread of {args.thread_messages:,}: peak RSS", f"{tui.status('VmHWM') / 2**20:.0f} MB"))
    finally:
        tui.quit()
        server.stop()


def idle300(binary, workdir, args, rows):
    server = Server(binary, workdir, 300)
    tui = Tui(binary, server, workdir)
    try:
        tui.wait_for(r"300 contacts │ synced", 60)
        # The first start's one-off work: last messages of the open
        # conversations trickle in at the sync rate (5 a second).
        t0 = time.monotonic()
        rows.append((f"300 contacts, first {args.idle:.0f} s after the first sync (last messages trickling in)",
                     f"{tui.idle_cpu(args.idle):.2f} % of a core"))
        time.sleep(max(0.0, args.trickle - (time.monotonic() - t0)))
        tui.settle(2.0)
        rows.append((f"300 contacts, idle {args.idle:.0f} s (refresh poll included)",
                     f"{tui.idle_cpu(args.idle):.2f} % of a core"))
    finally:
        tui.quit()
        server.stop()


def big_list(binary, workdir, args, rows):
    n = args.contacts
    t0 = time.monotonic()
    server = Server(binary, workdir, n)
    print(f"  seeded {n:,} contacts in {time.monotonic() - t0:.1f} s", file=sys.stderr)
    try:
        env = dict(os.environ, FRONTDESK_BASE_URL=server.base_url, FRONTDESK_API_KEY=API_KEY,
                   XDG_CACHE_HOME=os.path.join(workdir, "cache"))
        config = os.path.join(workdir, "no-such-config.toml")
        out = os.path.join(workdir, "all.jsonl")
        t0 = time.monotonic()
        with open(out, "wb") as f:
            subprocess.run([binary, "--config", config, "contacts", "list", "--all", "--jsonl"], stdout=f,
                           stderr=subprocess.DEVNULL, env=env, check=True)
        cli = time.monotonic() - t0
        json_bytes = os.path.getsize(out)
        # A first start, no index yet: `G` walks the API to the end (the
        # index fills behind it at its own pace).
        tui = Tui(binary, server, workdir)
        try:
            tui.wait_for(r"Contacts \d+", 60)
            tui.settle(0.5)
            t0 = time.monotonic()
            tui.send("G")
            tui.wait_for(rf"Contacts {n} ", args.load_timeout)
            g = time.monotonic() - t0
            rows.append((f"`G` until all {n:,} are loaded (no index yet)",
                         f"{g:.1f} s (CLI `contacts list --all --jsonl`: {cli:.1f} s, ratio {g / cli:.2f})"))
        finally:
            tui.quit()
        # The index as a second start finds it (built at full speed here).
        t0 = time.monotonic()
        subprocess.run([binary, "--config", config, "sync", "--sync-rate", "0"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=env, check=True)
        print(f"  indexed {n:,} contacts in {time.monotonic() - t0:.1f} s", file=sys.stderr)
        t0 = time.monotonic()
        tui = Tui(binary, server, workdir)
        try:
            tui.wait_for(r"Contacts \d+", 60)
            first = time.monotonic() - t0
            tui.wait_for(rf"Contacts {n} ", args.load_timeout)
            whole = time.monotonic() - t0
            rows.append((f"Second start, {n:,} contacts in the index", f"list on screen {first * 1000:.0f} ms, "
                                                                        f"all {n:,} listed {whole:.1f} s"))
            tui.settle(1.0)
            rss, hwm = tui.status("VmRSS"), tui.status("VmHWM")
            rows.append((f"{n:,} contacts loaded: memory", f"RSS {rss / 2**20:.0f} MB, peak {hwm / 2**20:.0f} MB "
                                                          f"(their JSON {json_bytes / 2**20:.0f} MB, "
                                                          f"RSS/JSON {rss / json_bytes:.2f})"))
            tui.send("G")
            tui.settle(0.5)
            rows.append((f"{n:,} contacts loaded, `k`", latency_row(keys(tui, "k", args.samples, reset="G"))))
            tui.send("/")
            tui.settle(0.5)
            typed = []
            word = "mariagonzalezsmith"
            while len(typed) < args.samples:
                for ch in word:
                    dt = tui.key(ch)
                    if dt is not None:
                        typed.append(dt)
                for _ in word:
                    dt = tui.key("\x7f")
                    if dt is not None:
                        typed.append(dt)
            rows.append((f"{n:,} contacts loaded, typing in `/`", latency_row(typed)))
            tui.send("\x1b")
        finally:
            tui.quit()
    finally:
        server.stop()


def idle_big(binary, workdir, args, rows):
    """Issue 22's idle target: a second start on an index of `--contacts`,
    everything listed, then `--idle-big` seconds with no key pressed (the
    background trickle of last messages goes on, as it would for hours on a
    real account). Reports CPU and RSS against the JSON the list holds."""
    n = args.contacts
    server = Server(binary, workdir, n)
    try:
        env = dict(os.environ, FRONTDESK_BASE_URL=server.base_url, FRONTDESK_API_KEY=API_KEY,
                   XDG_CACHE_HOME=os.path.join(workdir, "cache"))
        config = os.path.join(workdir, "no-such-config.toml")
        out = os.path.join(workdir, "all.jsonl")
        with open(out, "wb") as f:
            subprocess.run([binary, "--config", config, "contacts", "list", "--all", "--jsonl"], stdout=f,
                           stderr=subprocess.DEVNULL, env=env, check=True)
        json_bytes = os.path.getsize(out)
        subprocess.run([binary, "--config", config, "sync", "--sync-rate", "0"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=env, check=True)
        tui = Tui(binary, server, workdir)
        try:
            tui.wait_for(rf"Contacts {n} ", args.load_timeout)
            # As for every idle figure here: after the start's one-off work
            # (the last messages of the rows on screen and the next screen,
            # and the trickle's first 600, fetched at the sync budget's pace).
            time.sleep(args.trickle_big)
            tui.settle(2.0)
            cpu = tui.idle_cpu(args.idle_big)
            rss = tui.status("VmRSS")
            rows.append((f"{n:,} contacts listed, idle {args.idle_big:.0f} s (last messages trickling)",
                         f"{cpu:.2f} % of a core"))
            rows.append((f"{n:,} contacts listed, after idle: memory",
                         f"RSS {rss / 2**20:.0f} MB, JSON {json_bytes / 2**20:.0f} MB, "
                         f"RSS/JSON {rss / json_bytes:.2f}"))
        finally:
            tui.quit()
    finally:
        server.stop()


SITUATIONS = ["thread20", "thread20k", "idlethread", "idle300", "big", "idlebig"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "frontdesk"))
    ap.add_argument("--only", default=",".join(SITUATIONS), help="comma-separated: " + ", ".join(SITUATIONS))
    ap.add_argument("--samples", type=int, default=60, help="timed keys per situation")
    ap.add_argument("--idle", type=float, default=20.0, help="seconds of idle per CPU figure")
    ap.add_argument("--trickle", type=float, default=45.0,
                    help="seconds to let a first start fetch its last messages before measuring idle")
    ap.add_argument("--idle-big", type=float, default=60.0, help="seconds of idle with --contacts listed")
    ap.add_argument("--trickle-big", type=float, default=150.0,
                    help="seconds after the list is whole before idlebig measures (the start's one-off work)")
    ap.add_argument("--thread-messages", type=int, default=20_000)
    ap.add_argument("--contacts", type=int, default=100_000)
    ap.add_argument("--load-timeout", type=float, default=900.0, help="seconds to wait for a full load")
    args = ap.parse_args()
    args.only = set(args.only.split(","))
    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        sys.exit(f"no binary at {binary}: cargo build --release first")
    rows = []
    workdir = tempfile.mkdtemp(prefix="frontdesk-perf-")
    try:
        if args.only & {"thread20", "thread20k", "idlethread"}:
            print("measuring the thread…", file=sys.stderr)
            thread_situations(binary, workdir, args, rows)
        if "idle300" in args.only:
            print("measuring 300 contacts idle…", file=sys.stderr)
            idle300(binary, workdir, args, rows)
        if "big" in args.only:
            print(f"measuring {args.contacts:,} contacts…", file=sys.stderr)
            big_list(binary, workdir, args, rows)
        if "idlebig" in args.only:
            print(f"measuring {args.contacts:,} contacts idle…", file=sys.stderr)
            idle_big(binary, workdir, args, rows)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    load = os.getloadavg()[0]
    print(f"Terminal {COLS}x{ROWS}, {os.cpu_count()} cores, load average {load:.1f} at the end, "
          f"{time.strftime('%Y-%m-%d')}, `{os.path.relpath(binary)}`\n")
    print("| Situation | Measured |")
    print("|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
