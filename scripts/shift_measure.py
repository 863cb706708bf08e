#!/usr/bin/env python3
"""A two-agent shift through a hub, measured against the service (issue 36).

The service is `frontdesk serve` over a simulated 250 ms link, seeded with
--contacts contacts in a SQLite file. Customers write in (and the bots of
started contacts answer a second later) from a second `serve` process on
the same file: it is the service's simulated activity, and stopping it is
"the traffic stopping". Its events reach the hub by the account's webhook.

Two agents (alex and bea) run the TUI in tmux (80x24) through the hub and
act on the same contacts through the CLI (both assign the newest waiting
customer to themselves at once, one answers, now and then one closes); a
third shell (chen) runs `frontdesk views --json` through the hub.

Every --every seconds it reads each face's counts (the TUIs' tab line by
`tmux capture-pane`, chen's `views --json`) and the service's (SQL over the
server's SQLite, with the waiting rule of README.md "Who is waiting": a
person's reply ends a wait, a send within 5 s of a customer's or another
automatic message is a bot's or an automation's and does not, a note never
does). At the end it prints (and writes with --out) the largest difference
during the shift, the time from the traffic stopping until every face
equals the service, Waiting as the CLI, the TUIs and `frontdesk mcp` give
it, and how many bot-answered customers the service has waiting.

Only python3's standard library; tmux and the frontdesk binaries.
    scripts/shift_measure.py --minutes 20 --label after
    scripts/shift_measure.py --agent-bin /work/old/target/debug/frontdesk --label before
"""

import argparse
import datetime
import json
import os
import re
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

VIEWS = ["Mine", "Unassigned", "Waiting", "Open", "All"]
SHORT = {"Unassign": "Unassigned"}
AUTOMATIC_MS = 5000
# How far the service's date of a message may be from the hub's record of
# the send (the send's round trip over the 250 ms link, and more).
NAMED_MS = 60000


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class Shift:
    def __init__(self, a):
        self.a = a
        self.dir = tempfile.mkdtemp(prefix=f"shift-{a.label}-")
        self.races = {"one told, the one kept": 0, "both told assigned": 0, "neither told": 0,
                      "told, but another kept": 0, "not a race: already assigned": 0}
        self.race_log = []
        self.key = "sk_" + secrets.token_hex(16)
        self.svc_port, self.traffic_port, self.hub_port = a.port_base, a.port_base + 1, a.port_base + 2
        self.db = os.path.join(self.dir, "service.sqlite")
        self.procs = {}
        self.sessions = []
        self.tokens = {}
        self.emails = {"alex": "alex@frontdesk.example", "bea": "bea@frontdesk.example", "chen": "chen@frontdesk.example"}

    # ---- processes -------------------------------------------------------
    def spawn(self, name, argv, env=None):
        out = open(os.path.join(self.dir, f"{name}.log"), "w")
        e = dict(os.environ)
        e.update(env or {})
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=e,
                             start_new_session=True)
        self.procs[name] = p
        return p

    def stop(self, name):
        p = self.procs.pop(name, None)
        if p and p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()

    def wait_for(self, what, cond, timeout=300):
        end = time.time() + timeout
        while time.time() < end:
            if cond():
                return
            time.sleep(0.5)
        raise SystemExit(f"gave up waiting for {what}; logs in {self.dir}")

    def hub_env(self, agent):
        home = os.path.join(self.dir, agent)
        os.makedirs(home, exist_ok=True)
        cfg = os.path.join(home, "config.toml")
        if not os.path.exists(cfg):
            with open(cfg, "w"):
                pass
            os.chmod(cfg, 0o600)
        env = {k: v for k, v in os.environ.items() if not k.startswith("FRONTDESK_")}
        env.update({"HOME": home, "XDG_CACHE_HOME": os.path.join(home, "cache"),
                    "XDG_STATE_HOME": os.path.join(home, "state"), "XDG_DATA_HOME": os.path.join(home, "data"),
                    "XDG_CONFIG_HOME": os.path.join(home, "conf"), "FRONTDESK_CONFIG": cfg,
                    "FRONTDESK_HUB_URL": f"http://127.0.0.1:{self.hub_port}",
                    "FRONTDESK_HUB_TOKEN": self.tokens[agent], "NO_COLOR": "1"})
        return env

    def cli(self, agent, args, timeout=120):
        try:
            r = subprocess.run([self.a.agent_bin] + args, env=self.hub_env(agent), capture_output=True, text=True,
                               timeout=timeout)
            return r.returncode, r.stdout, r.stderr
        except subprocess.TimeoutExpired:
            return -1, "", "timed out"

    def start(self):
        a = self.a
        log(f"service on :{self.svc_port} ({a.contacts} contacts, 250 ms link), files in {self.dir}")
        self.spawn("service", [a.serve_bin, "serve", "--addr", f"127.0.0.1:{self.svc_port}", "--db", self.db,
                               "--contacts", str(a.contacts), "--api-key", self.key, "--latency-ms",
                               str(a.latency_ms), "--no-activity"])
        self.wait_for("the service", lambda: self.http_ok(f"http://127.0.0.1:{self.svc_port}/v1/plan", self.key))
        hub_dir = os.path.join(self.dir, "hub")
        base = {"FRONTDESK_API_KEY": self.key, "FRONTDESK_BASE_URL": f"http://127.0.0.1:{self.svc_port}/v1",
                "FRONTDESK_CONFIG": os.path.join(self.dir, "none.toml")}
        for agent in ["alex", "bea", "chen"]:
            r = subprocess.run([a.agent_bin, "hub", "--data-dir", hub_dir, "agents", "add", agent, "--email",
                                self.emails[agent]], env={**os.environ, **base}, capture_output=True, text=True)
            token = next((w for w in r.stdout.split() if w.startswith("fdh_")), None)
            if not token:
                raise SystemExit(f"no token for {agent}: {r.stdout} {r.stderr}")
            self.tokens[agent] = token
        url = f"http://127.0.0.1:{self.hub_port}"
        self.spawn("hub", [a.agent_bin, "hub", "--data-dir", hub_dir, "--addr", f"127.0.0.1:{self.hub_port}",
                           "--public-url", url, "--subscribe"], env=base)
        self.wait_for("the hub's webhook subscription", lambda: self.setting("webhook_subscription") is not None)
        # Customers start writing: the service's own activity, on the same file.
        self.spawn("traffic", [a.serve_bin, "serve", "--addr", f"127.0.0.1:{self.traffic_port}", "--db", self.db,
                               "--api-key", self.key])
        for agent in ["alex", "bea"]:
            name = f"reports2-{a.label}-{agent}"
            env = self.hub_env(agent)
            exports = " ".join(f"{k}={shlex_quote(v)}" for k, v in env.items() if k.startswith(("FRONTDESK_", "XDG_")) or k in ("HOME", "NO_COLOR"))
            subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
            subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "80", "-y", "24",
                            f"env {exports} {a.agent_bin}"], check=True)
            self.sessions.append(name)
        log("hub, traffic and two TUIs started")

    def close(self):
        for s in self.sessions:
            subprocess.run(["tmux", "kill-session", "-t", s], capture_output=True)
        for name in list(self.procs):
            self.stop(name)

    # ---- reading ---------------------------------------------------------
    def http_ok(self, url, token):
        try:
            req = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
            with urllib.request.urlopen(req, timeout=5) as r:
                return r.status == 200
        except Exception:
            return False

    def sql(self):
        c = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=10)
        c.execute("PRAGMA busy_timeout = 10000")
        return c

    def setting(self, key):
        try:
            with self.sql() as c:
                row = c.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
                return row[0] if row else None
        except sqlite3.Error:
            return None

    def agents_sends(self):
        """What the hub recorded of the agents' sends through it: (contact
        uuid, text) to the times they went, in ms."""
        out = {}
        path = os.path.join(self.dir, "hub", "hub.sqlite")
        try:
            c = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
            rows = c.execute("SELECT contact, text, at FROM sent WHERE contact IS NOT NULL").fetchall()
            c.close()
        except sqlite3.Error:
            return out
        for contact, text, at in rows:
            try:
                ms = int(datetime.datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)
            except ValueError:
                continue
            out.setdefault((contact, text or ""), []).append(ms)
        return out

    def service(self):
        """The service's counts per agent, and its waiting customers behind a bot."""
        # README "Who is waiting": a sent message the hub names (an agent's
        # send through it) is a person's, however soon it came.
        sends = self.agents_sends()

        def by_an_agent(uuid, text, at):
            return any(abs(at - t) <= NAMED_MS for t in sends.get((uuid, text or ""), []))

        with self.sql() as c:
            contacts = c.execute("SELECT id, uuid, assigned_user, closed_at FROM contacts").fetchall()
            uuid_of = {cid: u for cid, u, _a, _c in contacts}
            msgs = c.execute("SELECT contact_id, created_at, status, text FROM messages ORDER BY contact_id, created_at, id")
            waiting, behind_bot, last = {}, set(), {}
            cur, state = None, None
            for cid, at, status, text in list(msgs) + [(None, 0, "", "")]:
                if cid != cur:
                    if cur is not None and state["since"] is not None:
                        waiting[cur] = state["since"]
                        if state["bot"]:
                            behind_bot.add(cur)
                    cur, state = cid, {"since": None, "bot": False, "prev": None}
                if cid is None:
                    break
                last[cid] = (status, at)
                if status == "received":
                    if state["since"] is None:
                        state["since"] = at
                    state["bot"] = False
                    state["prev"] = ("customer", at)
                elif status == "sent":
                    prev = state["prev"]
                    auto = (prev is not None and prev[0] in ("customer", "automatic")
                            and at - prev[1] <= AUTOMATIC_MS and not by_an_agent(uuid_of.get(cid), text, at))
                    if auto:
                        if state["since"] is not None:
                            state["bot"] = True
                        state["prev"] = ("automatic", at)
                    else:
                        state["since"], state["bot"] = None, False
                        state["prev"] = ("person", at)
        # README "Who is waiting": a closed conversation the customer wrote
        # in after the close counts as open (nobody has answered them).
        def closed_now(cid, closed):
            if closed is None:
                return False
            status, at = last.get(cid, ("", 0))
            return not (status == "received" and at > closed)

        out = {}
        for agent, email in self.emails.items():
            n = {v: 0 for v in VIEWS}
            for cid, _uuid, assignee, closed in contacts:
                n["All"] += 1
                if closed_now(cid, closed):
                    continue
                n["Open"] += 1
                if not assignee:
                    n["Unassigned"] += 1
                if assignee == email:
                    n["Mine"] += 1
                if cid in waiting:
                    n["Waiting"] += 1
            out[agent] = n
        open_ids = {cid for cid, _u, _a, closed in contacts if not closed_now(cid, closed)}
        return out, len(behind_bot & open_ids)

    def tui(self, agent):
        """The counts on the TUI's tab line (None: not readable)."""
        r = subprocess.run(["tmux", "capture-pane", "-p", "-t", f"reports2-{self.a.label}-{agent}"],
                           capture_output=True, text=True)
        counts = {}
        for line in r.stdout.splitlines()[:4]:
            for name, at_least, n in re.findall(r"(Mine|Unassigned|Unassign|Waiting|Open|All)\*? (≥?)(\d+(?:\.\d+)?[kM]?)",
                                                line):
                counts[SHORT.get(name, name)] = parse_count(n) if not at_least else -parse_count(n)
        return counts if len(counts) == len(VIEWS) else None

    def cli_views(self, agent):
        code, out, err = self.cli(agent, ["--json", "views"])
        if code != 0:
            return None
        try:
            rows = json.loads(out)
        except ValueError:
            return None
        return {r["name"]: (r["count"] if not r.get("atLeast") else -r["count"]) for r in rows if r["name"] in VIEWS}

    def mcp_waiting(self, agent):
        """Waiting as `frontdesk mcp` answers it (list_contacts in Waiting, every page)."""
        p = subprocess.Popen([self.a.agent_bin, "mcp"], env=self.hub_env(agent), stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        lines = []
        done = threading.Event()

        def reader():
            for line in p.stdout:
                lines.append(line)
            done.set()

        threading.Thread(target=reader, daemon=True).start()

        def call(i, method, params):
            p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n")
            p.stdin.flush()
            end = time.time() + 300
            while time.time() < end:
                for line in list(lines):
                    try:
                        m = json.loads(line)
                    except ValueError:
                        continue
                    if m.get("id") == i:
                        lines.remove(line)
                        return m
                time.sleep(0.1)
            return None

        try:
            call(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                   "clientInfo": {"name": "shift_measure", "version": "1"}})
            p.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
            p.stdin.flush()
            # Its own index fills first: ask again until the answer says
            # it is complete (up to three minutes).
            i, end = 2, time.time() + 180
            while True:
                m = call(i, "tools/call", {"name": "list_contacts", "arguments": {"view": "Waiting", "limit": 1}})
                i += 1
                res = (m or {}).get("result") or {}
                body = res.get("structuredContent") or {}
                if body.get("complete") or time.time() > end:
                    n = body.get("total")
                    return n if body.get("complete") else (None if n is None else -n)
                time.sleep(2)
        finally:
            p.stdin.close()
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()

    # ---- acting ----------------------------------------------------------
    def newest_waiting(self):
        with self.sql() as c:
            rows = c.execute("""SELECT c.uuid FROM contacts c WHERE c.closed_at IS NULL AND
                   (SELECT status FROM messages m WHERE m.contact_id = c.id ORDER BY created_at DESC, id DESC LIMIT 1)
                   = 'received' ORDER BY c.last_activity DESC LIMIT 5""").fetchall()
        return [r[0] for r in rows]

    def act(self, n):
        uuids = self.newest_waiting()
        if not uuids:
            return
        target = uuids[0]
        # Both agents take the same customer at once: exactly one may be
        # told it is theirs, and it must be whom the service kept. A race
        # counts only when the customer was unassigned: one already an
        # agent's is hers ("already assigned") or taken over knowingly.
        with self.sql() as c:
            before = c.execute("SELECT assigned_user FROM contacts WHERE uuid = ?", (target,)).fetchone()
        if before and before[0]:
            self.races["not a race: already assigned"] += 1
            before = "taken"
        ps = [subprocess.Popen([self.a.agent_bin, "contacts", "assign", self.emails[ag], target],
                               env=self.hub_env(ag), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
              for ag in ("alex", "bea")]
        told = []
        for p in ps:
            try:
                told.append(p.wait(120) == 0)
            except subprocess.TimeoutExpired:
                p.kill()
                told.append(None)
        with self.sql() as c:
            kept = c.execute("SELECT assigned_user FROM contacts WHERE uuid = ?", (target,)).fetchone()
        kept = kept[0] if kept else None
        winners = [ag for ag, ok in zip(("alex", "bea"), told) if ok]
        self.race_log.append({"contact": target, "before": before if before == "taken" else None,
                              "told": dict(zip(("alex", "bea"), told)), "kept": kept})
        if before == "taken":
            pass
        elif len(winners) == 1 and kept == self.emails[winners[0]]:
            self.races["one told, the one kept"] += 1
        elif len(winners) == 2:
            self.races["both told assigned"] += 1
        elif not winners:
            self.races["neither told"] += 1
        else:
            self.races["told, but another kept"] += 1
        who = ("alex", "bea")[n % 2]
        self.cli(who, ["messages", "send", target, "--text", "Hello, I am looking into it."])
        if n % 3 == 2 and len(uuids) > 1:
            self.cli(("bea", "alex")[n % 2], ["contacts", "close", uuids[1]])


def shlex_quote(s):
    import shlex
    return shlex.quote(s)


def parse_count(s):
    if s.endswith("k"):
        return int(float(s[:-1]) * 1000)
    if s.endswith("M"):
        return int(float(s[:-1]) * 1_000_000)
    return int(s)


def diff(face, truth):
    """The largest difference of one face's counts from the service's (a
    `≥` count, stored negative, differs by how far it is below)."""
    if face is None:
        return None
    return max(abs(abs(face.get(v, 0)) - truth[v]) for v in VIEWS)


def equal(face, truth):
    return face is not None and all(face.get(v) == truth[v] for v in VIEWS)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_bin = os.path.join(os.path.dirname(here), "target", "debug", "frontdesk")
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=20, help="length of the shift (default 20)")
    ap.add_argument("--tail", type=float, default=3, help="minutes after the traffic stops (default 3)")
    ap.add_argument("--every", type=float, default=5, help="seconds between two readings (default 5)")
    ap.add_argument("--act-every", type=float, default=20, help="seconds between the agents' actions (default 20)")
    ap.add_argument("--contacts", type=int, default=900, help="seeded contacts (default 900: exact tab counts)")
    ap.add_argument("--latency-ms", type=int, default=250)
    ap.add_argument("--agent-bin", default=default_bin, help="frontdesk for the hub, the TUIs and the CLI")
    ap.add_argument("--serve-bin", default=default_bin, help="frontdesk for the service")
    ap.add_argument("--port-base", type=int, default=28100)
    ap.add_argument("--label", default="run")
    ap.add_argument("--out", help="write the figures as JSON here")
    a = ap.parse_args()
    # A TERM (or an INT, also when started in the background) ends the
    # shift cleanly: the servers, the hub and the TUIs are stopped.
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: sys.exit(130))
    if not shutil.which("tmux"):
        raise SystemExit("tmux is needed")
    s = Shift(a)
    result = {"label": a.label, "minutes": a.minutes, "contacts": a.contacts, "agent_bin": a.agent_bin}
    series = []
    try:
        s.start()
        start = time.time()
        stop_at = start + max(a.minutes - a.tail, 0.5) * 60
        end_at = start + a.minutes * 60
        worst = {"tui": 0, "cli": 0}
        worst_at = {}
        # After each face first showed the whole account (All equal to the
        # service's, no `≥`): the drift of a running shift, not the load.
        loaded = {}
        worst_loaded = {}
        series = []
        samples, n, next_act = 0, 0, start + 30
        stopped, settled = None, None
        while time.time() < end_at:
            now = time.time()
            if stopped is None and now >= stop_at:
                s.stop("traffic")
                stopped = time.time()
                log("traffic stopped")
            if stopped is None and now >= next_act:
                s.act(n)
                n += 1
                next_act = now + a.act_every
            truth, _bot = s.service()
            faces = {"alex TUI": s.tui("alex"), "bea TUI": s.tui("bea")}
            if stopped is None or samples % 3 == 0:
                faces["chen CLI"] = s.cli_views("chen")
            samples += 1
            series.append({"t": round(now - start, 1), "service": truth["chen"], "faces": faces,
                           "traffic": stopped is None})
            for face, counts in faces.items():
                agent = face.split()[0]
                d = diff(counts, truth[agent])
                kind = "tui" if "TUI" in face else "cli"
                if d is not None and d > worst[kind]:
                    worst[kind] = d
                    worst_at[kind] = {"face": face, "seconds": round(now - start), "face_counts": counts,
                                      "service": truth[agent]}
                if counts is not None and face not in loaded and counts.get("All") == truth[agent]["All"]:
                    loaded[face] = round(now - start, 1)
                if face in loaded and d is not None and d > worst_loaded.get(face, {}).get("difference", -1):
                    worst_loaded[face] = {"difference": d, "seconds": round(now - start), "face_counts": counts,
                                          "service": truth[agent]}
            if stopped is not None and settled is None:
                if all(equal(c, truth[f.split()[0]]) for f, c in faces.items() if "TUI" in f):
                    settled = time.time() - stopped
                    log(f"every TUI equals the service {settled:.1f} s after the traffic stopped")
            if samples % 12 == 1:
                log(f"service {truth['alex']}; alex TUI {faces['alex TUI']}; bea TUI {faces['bea TUI']}")
            time.sleep(a.every if stopped is None else 1)
        truth, bot = s.service()
        final = {"service": truth, "alex TUI": s.tui("alex"), "bea TUI": s.tui("bea"), "chen CLI": s.cli_views("chen")}
        mcp = s.mcp_waiting("chen")
        result.update({
            "largest_difference": worst, "largest_difference_at": worst_at,
            "whole_account_shown_after_s": loaded, "largest_difference_once_loaded": worst_loaded,
            "settled_after_traffic_stopped_s": None if settled is None else round(settled, 1),
            "final": final,
            "waiting": {"service": truth["chen"]["Waiting"], "CLI": (final["chen CLI"] or {}).get("Waiting"),
                        "TUI alex": (final["alex TUI"] or {}).get("Waiting"),
                        "TUI bea": (final["bea TUI"] or {}).get("Waiting"), "mcp": mcp},
            "bot_answered_waiting_service": bot,
            "actions": n,
            "assignment_races": s.races,
            "assignment_race_log": s.race_log,
        })
    finally:
        s.close()
    if a.out:
        with open(a.out, "w") as f:
            json.dump({**result, "series": series}, f, indent=2)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
