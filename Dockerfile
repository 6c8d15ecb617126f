# syntax=docker/dockerfile:1
# One image for every process role: `all` (API + worker on the embedded database, the default), `api`,
# `worker` and `migrate` (see src/main.ts). Build:  docker build -t payout-orchestration .

# --- build: the TypeScript compiler and the other dev dependencies live only here ------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The lock covers the npm workspaces (packages/*): npm ci needs their package.json files. The client's and the
# CLI's sources are not part of the image. packages/time-zone is: the service and the dashboard both run it (plain
# JavaScript, no build step), and npm ci links it into node_modules.
COPY packages/client/package.json ./packages/client/
COPY packages/cli/package.json ./packages/cli/
COPY packages/time-zone ./packages/time-zone
RUN npm ci --no-audit --no-fund && npm cache clean --force
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The dashboard build generates its API types from the OpenAPI document (scripts/write-openapi.ts boots the
# app on a throw-away embedded database, hence the migrations), then Vite writes dist/dashboard. The client and
# CLI workspaces are tools for integrators, not part of the image.
COPY drizzle ./drizzle
COPY scripts/write-openapi.ts ./scripts/
COPY dashboard ./dashboard
# The one file of the client the dashboard bundles (the bulk upload id, so a file sent from the dashboard, the
# client or the CLI is the same upload); Vite and tsc read it through the package's "source" export condition.
COPY packages/client/src/upload-id.ts ./packages/client/src/
RUN npm run build:service && npm run build:dashboard

# --- production dependencies only: the build's lockfile install with the dev dependencies pruned ----------
# (no second download, and exactly the versions the build compiled against)
FROM build AS deps
# The client's and the CLI's workspace links point at sources the image does not contain: drop them. The
# time-zone link stays (a dependency of the service) and the runtime stage copies what it points at.
RUN npm prune --omit=dev --no-audit --no-fund && \
    rm -rf node_modules/@payout-orchestration/client node_modules/@payout-orchestration/cli node_modules/.bin/payouts

# --- runtime: compiled code, migrations and production node_modules; no compiler, tests, docs or benches --
FROM node:20-bookworm-slim
# The repository names no licence file or public address yet: pass them at build time
# (--build-arg SOURCE_URL=https://… --build-arg LICENSES=<SPDX id>); NOASSERTION is SPDX for "not stated".
ARG VERSION=0.0.1
ARG SOURCE_URL=""
ARG LICENSES=NOASSERTION
LABEL org.opencontainers.image.title="payout-orchestration" \
      org.opencontainers.image.description="Self-hostable payout orchestration service (API and worker)" \
      org.opencontainers.image.source="${SOURCE_URL}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="${LICENSES}"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
# node_modules/@payout-orchestration/time-zone links here.
COPY --from=build --chown=root:root /app/packages/time-zone/package.json ./packages/time-zone/
COPY --from=build --chown=root:root /app/packages/time-zone/src ./packages/time-zone/src
COPY --from=build --chown=root:root /app/dist ./dist
COPY --chown=root:root package.json package-lock.json ./
COPY --chown=root:root drizzle ./drizzle
# The code is root-owned and read-only to the service; only DATA_DIR (embedded database, generated
# encryption key, .eml mail) is writable, and private to `node` (the service keeps it 0700 itself).
RUN mkdir -p /data && chown node:node /data && chmod 0700 /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# Liveness only (the process answers HTTP). Readiness, which also checks the database, is /readyz.
# Slim images have no curl: Node's own fetch does the probe. A worker-only container has no HTTP port,
# so its compose service turns this check off.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form, no shell and no init: node is PID 1 and receives SIGTERM itself; src/main.ts stops taking work,
# finishes what is in flight and exits 0 within SHUTDOWN_TIMEOUT_MS.
ENTRYPOINT ["node", "dist/main.js"]
CMD ["all"]
