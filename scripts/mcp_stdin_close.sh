#!/bin/sh
# A 10 MB query to `frontdesk mcp` over raw stdio, then stdin closes:
# prints the answer's time and the process's CPU seconds, and whether it
# exited. Usage: scripts/mcp_stdin_close.sh BASE_URL KEY [BIN]
set -eu
BASE=$1 KEY=$2 BIN=${3:-target/debug/frontdesk}
HOME_DIR=$(mktemp -d)
: > "$HOME_DIR/config.toml"; chmod 600 "$HOME_DIR/config.toml"
python3 - "$BIN" "$HOME_DIR" "$BASE" "$KEY" <<'PY'
import json, os, subprocess, sys, time
bin_, home, base, key = sys.argv[1:]
env = dict(os.environ, FRONTDESK_BASE_URL=base, FRONTDESK_API_KEY=key, HOME=home,
           XDG_CACHE_HOME=home + "/c", XDG_STATE_HOME=home + "/s")
p = subprocess.Popen([bin_, "--config", home + "/config.toml", "mcp"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
def send(m): p.stdin.write((json.dumps(m) + "\n").encode()); p.stdin.flush()
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
      "capabilities": {}, "clientInfo": {"name": "m", "version": "0"}}})
p.stdout.readline()
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
t = time.monotonic()
send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search",
      "arguments": {"query": "refund " * (10 * 1024 * 1024 // 7)}}})
line = p.stdout.readline()
answer = time.monotonic() - t
p.stdin.close()
t = time.monotonic()
code = p.wait(timeout=30)
tick = os.sysconf("SC_CLK_TCK")
print(json.dumps({"answer_s": round(answer, 3), "isError": json.loads(line)["result"].get("isError"),
                  "exit_after_close_s": round(time.monotonic() - t, 3), "exit_code": code}))
PY
rm -rf "$HOME_DIR"
