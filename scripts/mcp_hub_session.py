#!/usr/bin/env python3
"""Drive a team hub's `/mcp` (Streamable HTTP) with the official MCP Python
SDK (pip install mcp; measured with 2.3.0), against `frontdesk serve
--contacts N` behind `frontdesk hub`, and report: initialize time, tools
offered to an agent and to an admin, a read (list_contacts, its asOf and
completeness), a write by an agent (refused) and by an admin (applied, and
in the hub's audit under the admin), and 401 without a token. Everything
listens on 127.0.0.1 only. Not used by CI (tests/mcp/hub.rs drives raw
JSON-RPC over HTTP).

    python3 scripts/mcp_hub_session.py [--bin target/debug/frontdesk] [--contacts 300]
"""
import argparse, asyncio, json, os, socket, subprocess, tempfile, time, urllib.error, urllib.request

from mcp import ClientSession
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def wait_port(port):
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing listens on 127.0.0.1:{port}")


def http(url, token=None, body=None):
    req = urllib.request.Request(url, data=body, method="POST" if body else "GET")
    req.add_header("Accept", "application/json, text/event-stream")
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


async def session(url, token, calls):
    out = {}
    client = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    async with client:
        async with streamable_http_client(url, http_client=client) as (read, write, *_):
            async with ClientSession(read, write) as s:
                t = time.monotonic()
                await s.initialize()
                out["initialize_s"] = round(time.monotonic() - t, 3)
                tools = (await s.list_tools()).tools
                out["tools"] = len(tools)
                out["write_tools"] = sorted(t.name for t in tools if not t.annotations.read_only_hint)
                for name, args in calls:
                    t = time.monotonic()
                    r = await s.call_tool(name, args)
                    entry = {"seconds": round(time.monotonic() - t, 3), "isError": r.is_error}
                    if r.is_error:
                        entry["text"] = r.content[0].text[:160]
                    else:
                        sc = r.structured_content or {}
                        entry.update({k: sc[k] for k in ("total", "complete", "asOf", "done") if k in sc})
                        if "contacts" in sc:
                            entry["first"] = sc["contacts"][0]["uuid"] if sc["contacts"] else None
                    out[name] = entry
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/debug/frontdesk")
    ap.add_argument("--contacts", type=int, default=300)
    args = ap.parse_args()
    sport, hport, key = free_port(), free_port(), "measure-key-0123456789"
    procs = []
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, HOME=d, XDG_STATE_HOME=f"{d}/state", XDG_CACHE_HOME=f"{d}/cache",
                   FRONTDESK_HUB_DATA_DIR=f"{d}/hub", FRONTDESK_BASE_URL=f"http://127.0.0.1:{sport}/v1",
                   FRONTDESK_API_KEY=key)
        cfg = f"{d}/config.toml"
        open(cfg, "w").close()
        os.chmod(cfg, 0o600)
        try:
            procs.append(subprocess.Popen([args.bin, "serve", "--addr", f"127.0.0.1:{sport}", "--contacts",
                                           str(args.contacts), "--api-key", key],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            wait_port(sport)
            tokens = {}
            for name, role in (("dana", "admin"), ("lee", "agent")):
                r = subprocess.run([args.bin, "--config", cfg, "--email", f"{name}@example.com", "--json", "hub",
                                    "agents", "add", name, "--role", role],
                                   env=env, capture_output=True, text=True, check=True)
                tokens[name] = json.loads(r.stdout)["token"]
            procs.append(subprocess.Popen([args.bin, "--config", cfg, "hub", "--addr", f"127.0.0.1:{hport}"],
                                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            wait_port(hport)
            url = f"http://127.0.0.1:{hport}/mcp"
            report = {}
            init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}})
            report["no_token"] = http(url, None, init.encode())[0]
            report["wrong_token"] = http(url, "fdh_wrong", init.encode())[0]
            # The hub's first walk: wait until a read says the index is complete.
            t = time.monotonic()
            while True:
                r = asyncio.run(session(url, tokens["lee"], [("list_contacts", {"limit": 1})]))
                if r["list_contacts"].get("complete"):
                    break
                if time.monotonic() - t > 120:
                    raise SystemExit(f"the hub's index never completed: {r}")
                time.sleep(0.5)
            report["hub_index_complete_after_s"] = round(time.monotonic() - t, 1)
            # An open conversation, so the close is a real write (a close of
            # a closed one writes nothing, and the audit has nothing).
            r = asyncio.run(session(url, tokens["lee"], [("list_contacts", {"limit": 1, "view": "Open"})]))
            first = r["list_contacts"]["first"]
            report["lee_agent"] = asyncio.run(session(url, tokens["lee"], [
                ("list_contacts", {"limit": 20}), ("close", {"contact": first})]))
            report["dana_admin"] = asyncio.run(session(url, tokens["dana"], [
                ("close", {"contact": first}), ("history", {"limit": 1})]))
            audit = subprocess.run([args.bin, "--config", cfg, "--json", "hub", "audit"], env=env,
                                   capture_output=True, text=True)
            report["audit_names_dana"] = f'"dana"' in audit.stdout and first in audit.stdout
            print(json.dumps(report, indent=1))
        finally:
            for p in reversed(procs):
                p.terminate()
                p.wait()


if __name__ == "__main__":
    main()
