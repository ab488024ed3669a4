#!/usr/bin/env bash
# Runs the README's shell examples in order against a fresh service, as a newcomer would paste them,
# and fails when a curl answers an error status (or cannot connect) or a CLI command fails.
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
  # The example agent is started by the README itself, in the background of the examples' shell.
  [[ -f $WORK/agent.pid ]] && kill -- "-$(cat "$WORK/agent.pid")" 2>/dev/null
  kill "$SERVICE" 2>/dev/null
  wait "$SERVICE" 2>/dev/null
}
trap cleanup EXIT
for _ in $(seq 1 120); do
  curl -sf "http://localhost:$PORT/readyz" >/dev/null && break
  sleep 0.5
done
curl -sf "http://localhost:$PORT/readyz" >/dev/null || { echo "the service did not start:"; cat "$LOG"; exit 1; }

# The shell blocks from "First user and API key" up to "Development", with the README's port replaced.
awk '/^### First user and API key/{on=1} /^## Development/{on=0} on && /^```sh$/{inside=1; next} inside && /^```$/{inside=0; print ""; next} inside{print}' README.md \
  | sed "s#localhost:4000#localhost:$PORT#g" >"$WORK/examples.sh"

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
  if [[ "\$*" == "run example:agent" ]]; then setsid npm "\$@" & echo \$! >$WORK/agent.pid; wait \$!; return; fi
  command npm "\$@"; local rc=\$?
  [[ \$rc -ne 0 ]] && echo "exit \$rc: npm \$*" >>"\$FAILS"
  return \$rc
}
PREAMBLE
cat "$WORK/examples.sh" >>"$WORK/run.sh"
# What the examples promise beyond a 2xx: the example agent completed its task.
echo 'command curl -s $B/v1/tasks/$SHOUT -H "$AUTH" | jq -e ".data.status == \"completed\" and .data.result.text == \"HELLO\"" >/dev/null || echo "the example agent did not complete $SHOUT" >>"$FAILS"' >>"$WORK/run.sh"

bash "$WORK/run.sh" >"$WORK/output.txt" 2>&1
echo "examples: $(grep -c '^[0-9]\{3\} curl' "$WORK/calls") curl calls, $(grep -c . "$WORK/failures") failures (output in $WORK/output.txt)"
if [[ -s $WORK/failures ]]; then
  cat "$WORK/failures"
  exit 1
fi
