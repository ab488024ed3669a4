#!/usr/bin/env bash
# Does what the container image (Dockerfile) does, on a clean clone of the committed code, without a
# container engine: a build stage (npm ci with the development dependencies, npm run build), then a run
# stage holding only package.json, the lockfile, prisma/, scripts/ and the built dist/ with a
# production-only install (npm ci --omit=dev). The run stage starts as the image does (NODE_ENV=production,
# node scripts/start.mjs, which runs dist/service/service.mjs) on a fresh PostgreSQL database with Redis, and a task
# goes end to end: a user made with the CLI, a small agent on loopback, a task created over REST,
# delivered, completed by the agent's callback.
#
#   bash scripts/check-production.sh
#   POSTGRES=postgresql://postgres@127.0.0.1:5432 REDIS_URL=redis://127.0.0.1:6379 (the defaults)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
POSTGRES=${POSTGRES:-postgresql://postgres@127.0.0.1:5432}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
WORK=$(mktemp -d /tmp/check-production-XXXXXX)
DB=check_production_$(date +%s)_$$
SERVICE=''

psql_admin() { node -e "
  const pg = require('$WORK/app/node_modules/pg');
  const c = new pg.Client({ connectionString: '$POSTGRES/postgres' });
  c.connect().then(() => c.query(process.argv[1])).then(() => c.end(), (e) => { console.error(e.message); process.exit(1); });
" "$1"; }
cleanup() {
  local rc=$?
  [[ -n $SERVICE ]] && kill "$SERVICE" 2>/dev/null && wait "$SERVICE" 2>/dev/null
  [[ -f $WORK/agent.pid ]] && kill "$(cat "$WORK/agent.pid")" 2>/dev/null
  [[ -d $WORK/app/node_modules/pg ]] && psql_admin "DROP DATABASE IF EXISTS $DB WITH (FORCE)"
  if [[ $rc -ne 0 && -f $WORK/service.log ]]; then echo '--- service log'; tail -n 40 "$WORK/service.log"; fi
  rm -rf "$WORK"
  exit $rc
}
trap cleanup EXIT
step() { printf '\n--- %s\n' "$*"; }
seconds() { echo $(($(date +%s) - $1)); }

step "build stage: a clean clone of HEAD, npm ci with the development dependencies (which builds dist/)"
git clone --quiet --no-local "$ROOT" "$WORK/build"
start=$(date +%s)
(cd "$WORK/build" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
echo "build stage: $(seconds "$start") s"

step "run stage: package.json, lockfile, prisma/, scripts/, dist/ and npm ci --omit=dev --omit=optional"
mkdir "$WORK/app"
cp -r "$WORK/build/package.json" "$WORK/build/package-lock.json" "$WORK/build/prisma" "$WORK/build/scripts" "$WORK/build/dist" "$WORK/app/"
start=$(date +%s)
(cd "$WORK/app" && npm ci --omit=dev --omit=optional --no-audit --no-fund --loglevel=error)
echo "production install: $(seconds "$start") s, $(find "$WORK/app/node_modules" -name package.json -path '*/node_modules/*/package.json' -not -path '*/node_modules/*/node_modules/*/*' | wc -l) package.json files, $(du -sm "$WORK/app/node_modules" | cut -f1) MB of node_modules"
for dev in tsx esbuild typescript vitest react pino-pretty prisma; do
  if [[ -e $WORK/app/node_modules/$dev ]]; then echo "a development package in the production install: $dev"; exit 1; fi
done

step "start: NODE_ENV=production on a fresh PostgreSQL database ($DB) with Redis"
psql_admin "CREATE DATABASE $DB"
PORT=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
BASE=http://127.0.0.1:$PORT
export NODE_ENV=production DATABASE_URL=$POSTGRES/$DB REDIS_URL PORT HOST=127.0.0.1 PUBLIC_BASE_URL=$BASE \
  SECRET_KEY=$(node -e "console.log(require('crypto').randomBytes(32).toString('hex'))") DATA_DIR=$WORK/data \
  ALLOW_SIMULATED_PAYMENTS=true ALLOW_OPEN_SIGNUP_WITHOUT_MAIL=true ALLOW_PRIVATE_ENDPOINTS=true LOG_LEVEL=warn
cd "$WORK/app"
node scripts/start.mjs >"$WORK/service.log" 2>&1 &
SERVICE=$!
for _ in $(seq 1 240); do
  curl -sf "$BASE/readyz" >/dev/null && break
  kill -0 "$SERVICE" 2>/dev/null || { echo 'the service exited'; exit 1; }
  sleep 0.5
done
curl -sf "$BASE/readyz" >/dev/null || { echo 'the service did not become ready'; exit 1; }
echo "ready on $BASE"

step "smoke test: a user, an agent, a task completed by the agent's callback"
KEY=$(node scripts/cli.mjs user create --email smoke@example.com --name Smoke --json | node -e "process.stdin.on('data',d=>console.log(JSON.parse(d).apiKey))")
BASE=$BASE KEY=$KEY WORK=$WORK bash "$ROOT/scripts/smoke-task.sh"
echo "the service holds $(($(grep VmRSS /proc/$SERVICE/status | awk '{print $2}') / 1024)) MB RSS"
step "production check passed"
