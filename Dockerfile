# The service as a container image. Two stages: the build has the development dependencies (TypeScript,
# esbuild, the Prisma CLI, React) and produces dist/ (the service and CLI bundles, the dashboard); the
# image holds only the production dependencies and that build, and runs as the unprivileged `node` user.
# scripts/check-production.sh does the same steps without a container engine, and runs in CI.
#
#   docker build -t task-marketplace .
#   docker compose up            (compose.yaml: with PostgreSQL and Redis)

FROM node:20.20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build

FROM node:20.20-bookworm-slim
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=4000
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
# --omit=optional too: npm otherwise installs the optional peers of @prisma/client (the Prisma CLI,
# TypeScript) that the development dependencies put in the lockfile.
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund --ignore-scripts && npm cache clean --force
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
