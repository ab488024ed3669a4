#!/usr/bin/env bash
# Runs the shell examples marked runnable (fenced as ```sh runnable) in README.md and docs/*.md against a
# fresh service, in reading order (the README's quick start, then the pages in PAGES, then any other page),
# as a newcomer would paste them, and fails when a curl answers an error status (or cannot connect), a CLI
# command fails, or the tasks the examples promise are not completed.
#   bash scripts/check-readme.sh          (PORT defaults to 4105; the data goes to a temporary directory)
set -uo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-4105}
WORK=$(mktemp -d /tmp/readme-check-XXXXXX)
export DATA_DIR=$WORK/data PORT SERVICE_URL=http://localhost:$PORT
unset DATABASE_URL NODE_ENV

LOG=$WORK/service.log
node scripts/start.mjs >"$LOG" 2>&1 &
SERVICE=$!
cleanup() {
  # The example agents are started by the pages themselves, in the background of the examples' shell.
  if [[ -f $WORK/agent.pids ]]; then
    while read -r pid; do kill -- "-$pid" 2>/dev/null; done <"$WORK/agent.pids"
  fi
  kill "$SERVICE" 2>/dev/null
  wait "$SERVICE" 2>/dev/null
}
trap cleanup EXIT
for _ in $(seq 1 120); do
  curl -sf "http://localhost:$PORT/readyz" >/dev/null && break
  sleep 0.5
done
curl -sf "http://localhost:$PORT/readyz" >/dev/null || { echo "the service did not start:"; cat "$LOG"; exit 1; }

# The pages whose examples build on each other, in order (KEY, B, AGENT… carry over); other pages after.
PAGES=(README.md docs/getting-started.md docs/cli.md docs/rest.md docs/building-an-agent.md docs/payments.md docs/discovery.md docs/a2a-and-mcp.md)
for page in docs/*.md; do [[ " ${PAGES[*]} " == *" $page "* ]] || PAGES+=("$page"); done
for page in "${PAGES[@]}"; do
  [[ -f $page ]] || continue
  echo "# --- $page"
  awk '/^```sh runnable$/{inside=1; next} inside && /^```$/{inside=0; print ""; next} inside{print}' "$page"
  if [[ $page == README.md ]]; then
    # The quick start's promise: its task completed by the example agent (within 10 s).
    cat <<'QUICK'
quick_done=no
for _ in $(seq 1 50); do
  if command curl -s "http://localhost:4000/v1/tasks?role=requester" -H "Authorization: Bearer $API_KEY" \
    | jq -e '[.data[] | select(.title == "Shout" and .status == "completed" and .result.text == "HELLO")] | length == 1' >/dev/null; then quick_done=yes; break; fi
  sleep 0.2
done
[[ $quick_done == yes ]] || echo "the quick start's task was not completed by the example agent" >>"$FAILS"
QUICK
  fi
done | sed "s#localhost:4000#localhost:$PORT#g" >"$WORK/examples.sh"
echo "runnable blocks: $(grep -c '^```sh runnable$' "${PAGES[@]}" 2>/dev/null | awk -F: '{n+=$2} END {print n}') in ${#PAGES[@]} pages"

cat >"$WORK/run.sh" <<PREAMBLE
FAILS=$WORK/failures; CALLS=$WORK/calls; : >"\$FAILS"; : >"\$CALLS"
curl() {
  local out status
  out=\$(command curl -w '\n%{http_code}' "\$@")
  status=\${out##*\$'\n'}
  printf '%s\n' "\${out%\$'\n'*}"
  echo "\$status curl \$*" >>"\$CALLS"
  if [[ \$status -ge 400 || \$status == 000 ]]; then echo "HTTP \$status: curl \$*" >>"\$FAILS"; fi
}
npm() {
  # In a process group of its own, so that the agent (a grandchild of npm) stops with it.
  if [[ "\$*" == "run example:"* ]]; then setsid npm "\$@" & echo \$! >>$WORK/agent.pids; wait \$!; return; fi
  command npm "\$@"; local rc=\$?
  [[ \$rc -ne 0 ]] && echo "exit \$rc: npm \$*" >>"\$FAILS"
  return \$rc
}
# "Open the dashboard": the page must be served.
xdg-open() { command curl -sf -o /dev/null "\$1" || echo "the dashboard did not open: \$1" >>"\$FAILS"; }
open() { xdg-open "\$@"; }
PREAMBLE
cat "$WORK/examples.sh" >>"$WORK/run.sh"
# What the examples promise beyond a 2xx: the example agent completed the quick start's task and the later one.
cat >>"$WORK/run.sh" <<'PROMISES'
command curl -s "$B/v1/tasks/$SHOUT" -H "Authorization: Bearer $API_KEY" | jq -e '.data.status == "completed" and .data.result.text == "HELLO"' >/dev/null || echo "the example agent did not complete $SHOUT" >>"$FAILS"
command curl -s "$B/v1/tasks/$MY_TASK" -H "Authorization: Bearer $API_KEY" | jq -e '.data.status == "completed" and .data.result.text == "desserts"' >/dev/null || echo "the minimal agent of building-an-agent.md did not complete $MY_TASK" >>"$FAILS"
PROMISES

bash "$WORK/run.sh" >"$WORK/output.txt" 2>&1
echo "examples: $(grep -c '^[0-9]\{3\} curl' "$WORK/calls") curl calls, $(grep -c . "$WORK/failures") failures (output in $WORK/output.txt)"
if [[ -s $WORK/failures ]]; then
  cat "$WORK/failures"
  exit 1
fi
