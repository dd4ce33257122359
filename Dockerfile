# syntax=docker/dockerfile:1
# The Slowlane image: one image for the API and the workers (deploy/k8s/*.yaml, compose.yaml choose the command).
#
#   docker build -t registry.example.invalid/slowlane/slowlane:0.1.0 .
#   docker run --rm registry.example.invalid/slowlane/slowlane:0.1.0 node dist/workers/main.js
#
# registry.example.invalid is a placeholder (docs/deployment.md, "The container image"): tag and push to yours.
ARG NODE_IMAGE=node:24-bookworm-slim

# --- build: every dependency, type check, compile, prebuild the workflow bundle and the reviewer script ---
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- standins: the provider simulator and the ledger stand-in, from source, for compose.yaml only ---
# Never deployed: they stand in for Anthropic and the accounting system so `docker compose up` runs end to end.
FROM build AS standins
USER 1000:1000
CMD ["node", "--import", "tsx", "local/simulator/main.ts"]

# --- runtime: production dependencies and dist/ only, not root, tini as PID 1 ---
FROM ${NODE_IMAGE} AS runtime
# tini forwards SIGTERM to node (and reaps zombies): the worker's Temporal runtime then drains in-flight
# activities for WORKER_SHUTDOWN_GRACE before exiting; Kubernetes waits terminationGracePeriodSeconds.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# No SLOWLANE_ENV and no credentials here: every process refuses to start until the deployment gives
# SLOWLANE_ENV, SLOWLANE_TENANTS, API_PAGE_TOKEN_SECRET and (production) ANTHROPIC_API_KEY, SPEECH_API_KEY and PAYLOAD_CODEC_KEYS (docs/deployment.md).
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force
COPY --from=build /app/dist ./dist
# The image's own `node` user, by number so Kubernetes can check runAsNonRoot; the app files stay root-owned.
USER 1000:1000
EXPOSE 3000 9464 9465
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/api/main.js"]
