#!/bin/bash
# Issue 21's concurrent trial, against the embedded server on 127.0.0.1.
# Run from the repository root after `cargo build`: three agents on one
# account (two CLI tag runs at once, a bulk close whose answers are 500s
# after the service applied it, an undo after a colleague's edit), and what
# the service holds afterwards.
set -u
FD=${FD:-$(pwd)/target/debug/frontdesk}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export XDG_STATE_HOME=$T/state XDG_CACHE_HOME=$T/cache XDG_CONFIG_HOME=$T/config XDG_DATA_HOME=$T/data
start() { # $1 name, rest: serve flags
  local n=$1; shift
  $FD serve --addr 127.0.0.1:0 --no-activity --manifest $T/$n.json "$@" > $T/$n.log 2>&1 &
  echo $! > $T/$n.pid
  for i in $(seq 50); do [ -s $T/$n.json ] && break; sleep 0.2; done
  export FRONTDESK_BASE_URL=$(python3 -c "import json;print(json.load(open('$T/$n.json'))['base_url'])")
  export FRONTDESK_API_KEY=$(python3 -c "import json;print(json.load(open('$T/$n.json'))['api_key'])")
  export FRONTDESK_USER_EMAIL=alex@frontdesk.example
}
stop() { kill $(cat $T/$1.pid); }
count() { # python expression over the contacts list c
  $FD contacts list --all --json 2>/dev/null | python3 -c "import json,sys; c=json.load(sys.stdin); c=c if isinstance(c,list) else c.get('items',c.get('contacts',[])); print($1)"
}

echo "== 1. two CLI tag runs at once on the same 40 contacts"
start a --contacts 40 --seed 21
echo "before: vip on $(count "sum('vip' in x['tags'] for x in c)"), urgent on $(count "sum('urgent' in x['tags'] for x in c)"), tags in all $(count "sum(len(x['tags']) for x in c)")"
$FD contacts tag --view all vip --yes > $T/a1.out 2> $T/a1.err &
$FD contacts tag --view all urgent --yes > $T/a2.out 2> $T/a2.err &
wait %2 %3 2>/dev/null; sleep 0.5
tail -1 $T/a1.err; tail -1 $T/a2.err
echo "after: contacts $(count "len(c)"), vip on $(count "sum('vip' in x['tags'] for x in c)"), urgent on $(count "sum('urgent' in x['tags'] for x in c)"), tags in all $(count "sum(len(x['tags']) for x in c)")"
stop a

echo "== 2. bulk close under 30% applied-then-500"
start b --contacts 40 --seed 22 --apply-then-fail 0.3
open=$(count "sum(x.get('closedAt') is None for x in c)")
echo "open before: $open"
$FD contacts close --view open --yes --jsonl > $T/b.out 2> $T/b.err; echo "exit $?"
tail -2 $T/b.err
python3 -c "
import json
rows=[json.loads(l) for l in open('$T/b.out') if l.strip()]
from collections import Counter
print('jsonl outcomes:', dict(Counter(r.get('outcome') for r in rows)))"
grep -c '" 500 \|status=500\|500' $T/b.log | sed 's/^/server log lines with 500: /'
echo "open after: $(count "sum(x.get('closedAt') is None for x in c)")"
stop b

echo "== 3. undo after a colleague's edit"
start c --contacts 40 --seed 23
$FD contacts assign --view unassigned bea@frontdesk.example --yes --jsonl > $T/c1.out 2> $T/c1.err; tail -1 $T/c1.err
n=$(wc -l < $T/c1.out)
first=$(head -1 $T/c1.out | python3 -c "import json,sys;print(json.load(sys.stdin)['uuid'])")
second=$(sed -n 2p $T/c1.out | python3 -c "import json,sys;print(json.load(sys.stdin)['uuid'])")
# The colleague: reassigns one, closes another.
$FD contacts assign farah@frontdesk.example $first > /dev/null 2>&1
$FD contacts close $second > /dev/null 2>&1
$FD undo > $T/c2.out 2> $T/c2.err; echo "undo exit $?"
cat $T/c2.out | head -5
python3 - "$T/c1.out" "$first" "$second" <<PY
import json,subprocess,sys
rows=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]
out=subprocess.run(["$FD","contacts","list","--all","--json"],capture_output=True,text=True).stdout
c=json.loads(out); c=c if isinstance(c,list) else c.get("items",c.get("contacts",[]))
by={x["uuid"]:x for x in c}
run=[r["uuid"] for r in rows]
print("of the run's", len(run), "contacts: unassigned again", sum(by[u].get("assignedUser") in (None,"") for u in run),
      "; still assigned:", {u[:8]: by[u].get("assignedUser") for u in run if by[u].get("assignedUser")})
print("the one the colleague reassigned:", by[sys.argv[2]].get("assignedUser"), "; the one the colleague closed: closed =", by[sys.argv[3]].get("closedAt") is not None, ", assignee", by[sys.argv[3]].get("assignedUser"))
PY
stop c
