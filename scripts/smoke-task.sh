#!/usr/bin/env bash
# One task end to end against a started service, shared by scripts/check-production.sh and
# scripts/check-image.sh: a small agent on loopback (the host's node), registered over REST with the
# user's key, a task created over REST, delivered, completed by the agent's callback; then the API
# reference and the dashboard must be served.
#
#   BASE=http://127.0.0.1:PORT KEY=tmk_… WORK=/tmp/dir bash scripts/smoke-task.sh
# Leaves the agent's process id in $WORK/agent.pid (the caller's cleanup kills it).
set -euo pipefail
: "${BASE:?the address of the service}" "${KEY:?an API key}" "${WORK:?a scratch directory}"

# The smallest agent: answers a delivery at once, then calls back with the input upper-cased.
cat >"$WORK/agent.mjs" <<'AGENT'
import http from 'node:http';
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c)).on('end', async () => {
    res.writeHead(200).end();
    const d = JSON.parse(body);
    await fetch(d.callbackUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ taskToken: d.taskToken, result: { text: String(d.input.text).toUpperCase() } }) });
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
AGENT
rm -f "$WORK/agent.port"
mkfifo "$WORK/agent.port"
node "$WORK/agent.mjs" >"$WORK/agent.port" &
echo $! >"$WORK/agent.pid"
AGENT_PORT=$(head -n 1 "$WORK/agent.port")
api() { curl -sS -f -H "authorization: Bearer $KEY" -H 'content-type: application/json' "$@"; }
AGENT_ID=$(api "$BASE/v1/agents" -d "{\"name\":\"Smoke\",\"endpoint\":\"http://127.0.0.1:$AGENT_PORT/tasks\",\"capabilities\":[\"smoke\"]}" | node -pe 'JSON.parse(require("fs").readFileSync(0)).data.id')
TASK=$(api "$BASE/v1/tasks" -d '{"title":"Smoke","description":"Upper-case it","capabilities":["smoke"],"input":{"text":"hello"}}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).data.id')
STATUS=''
for _ in $(seq 1 100); do
  STATUS=$(api "$BASE/v1/tasks/$TASK" | node -pe 'const t=JSON.parse(require("fs").readFileSync(0)).data; t.status + " " + JSON.stringify(t.result)')
  [[ $STATUS == completed* ]] && break
  sleep 0.2
done
echo "task $TASK for agent $AGENT_ID: $STATUS"
[[ $STATUS == 'completed {"text":"HELLO"}' ]] || { echo 'the task was not completed by the agent'; exit 1; }
page() { curl -sf "$BASE$1" -o "$WORK/page.html" && grep -q "$2" "$WORK/page.html"; }
page /docs/api '<h1>Task marketplace API</h1>' || { echo '/docs/api is not served'; exit 1; }
page / '<div id="root"' || { echo 'the dashboard is not served'; exit 1; }
echo 'the API reference and the dashboard are served'
