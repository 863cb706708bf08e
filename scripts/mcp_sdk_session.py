#!/usr/bin/env python3
"""Drive `frontdesk mcp` with the official MCP Python SDK (pip install mcp)
against `frontdesk serve --contacts N` with a fresh index, and measure:
initialize time, time until list answers are complete, cursor walk to the
end, the 10 MB query's answer time, error codes, and the process's CPU
after stdin closes. Not used by CI (the Rust tests drive raw stdio).

    python3 scripts/mcp_sdk_session.py [--bin target/release/frontdesk] [--contacts 5000]
"""
import argparse, asyncio, json, os, socket, subprocess, tempfile, time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


async def session(args, base_url, key, home):
    env = dict(os.environ, FRONTDESK_BASE_URL=base_url, FRONTDESK_API_KEY=key,
               XDG_CACHE_HOME=f"{home}/cache", XDG_STATE_HOME=f"{home}/state", HOME=home)
    cfg = f"{home}/config.toml"
    open(cfg, "w").close()
    os.chmod(cfg, 0o600)
    params = StdioServerParameters(command=args.bin, args=["--config", cfg, "mcp"], env=env)
    out = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            t = time.monotonic()
            await s.initialize()
            out["initialize_s"] = round(time.monotonic() - t, 3)
            tools = (await s.list_tools()).tools
            out["tools"] = len(tools)
            out["hints_on_every_tool"] = all(
                t.annotations and None not in (t.annotations.read_only_hint, t.annotations.destructive_hint,
                                               t.annotations.idempotent_hint, t.annotations.open_world_hint)
                for t in tools)
            first = (await s.call_tool("list_contacts", {"limit": 5})).structured_content
            out["first_list"] = {k: first.get(k) for k in ("complete", "total", "missing")}
            t = time.monotonic()
            while True:
                r = (await s.call_tool("list_contacts", {"limit": 1})).structured_content
                if r["complete"]:
                    break
                await asyncio.sleep(0.5)
            out["complete_after_s"] = round(time.monotonic() - t, 1)
            seen, cursor, pages = set(), None, 0
            while True:
                a = {"limit": 100}
                if cursor:
                    a["cursor"] = cursor
                r = (await s.call_tool("list_contacts", a)).structured_content
                seen.update(c["uuid"] for c in r["contacts"])
                pages += 1
                cursor = r["nextCursor"]
                if not cursor:
                    break
            out["cursor_walk"] = {"pages": pages, "distinct": len(seen), "total": r["total"]}
            t = time.monotonic()
            r = await s.call_tool("search", {"query": "refund " * (10 * 1024 * 1024 // 7)})
            out["query_10mb"] = {"seconds": round(time.monotonic() - t, 3), "isError": r.is_error,
                                 "text": r.content[0].text[:90]}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/debug/frontdesk")
    ap.add_argument("--contacts", type=int, default=5000)
    args = ap.parse_args()
    port, key = free_port(), "measure-key-0123456789"
    serve = subprocess.Popen([args.bin, "serve", "--addr", f"127.0.0.1:{port}", "--contacts",
                              str(args.contacts), "--api-key", key],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}/v1"
        for _ in range(600):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        with tempfile.TemporaryDirectory() as home:
            print(json.dumps(asyncio.run(session(args, base, key, home)), indent=1))
    finally:
        serve.terminate()
        serve.wait()


if __name__ == "__main__":
    main()
