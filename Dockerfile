# The service as a container image. Two stages: the build has the development dependencies (TypeScript,
# esbuild, the Prisma CLI, React) and produces dist/ (the service and CLI bundles, the dashboard); the
# image holds only the production dependencies and that build, and runs as the unprivileged `node` user.
# .dockerignore keeps the host's node_modules, .data (a development secret key and database) and dist/
# out of the build context, so the build stage's own install and build are what the image holds.
# CI builds this file and runs the image (scripts/check-image.sh, with buildah: no daemon needed).
#
#   docker build -t task-marketplace .
#   POSTGRES_PASSWORD=… SECRET_KEY=… docker compose up    (compose.yaml: with PostgreSQL and Redis)

# Node 24 LTS. The version is pinned so the image is the one CI built and ran; scripts/check-image.sh
# reads it from this line.
FROM node:24.22.3-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm's download cache is a build cache mount, not a layer: a rebuild on the same machine fetches nothing
# it already has, and the image never holds it.
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build

FROM node:24.22.3-bookworm-slim
# HOST=0.0.0.0: inside a container the published port reaches the process only on the container's own
# interface (outside one, the service listens on loopback unless told otherwise).
# glibc's malloc as `npm start` sets it: one arena instead of one per thread, a fixed 128 KiB trim
# threshold and a 32 KiB mmap threshold (freed memory goes back to the system instead of staying in the
# process as holes between live blocks), for tens of MB less resident at a CPU cost within the benchmark's
# noise (docs/operations.md, "Memory").
ENV NODE_ENV=production \
    DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=4000 \
    MALLOC_ARENA_MAX=1 \
    MALLOC_TRIM_THRESHOLD_=131072 \
    MALLOC_MMAP_THRESHOLD_=32768
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
# --omit=optional too: npm otherwise installs the optional peers of @prisma/client (the Prisma CLI,
# TypeScript) that the development dependencies put in the lockfile.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --omit=optional --no-audit --no-fund --ignore-scripts
COPY prisma ./prisma
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# scripts/start.mjs runs the bundle in dist/ (a production install never rebuilds it) with the service's
# V8 flags, which it sets (docs/operations.md, "Memory"); the CLI: docker exec … node scripts/cli.mjs --help
CMD ["node", "scripts/start.mjs"]
