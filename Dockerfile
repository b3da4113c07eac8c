# syntax=docker/dockerfile:1
# Build: docker build -t tool-gateway .
# Run:   docker run -p 8787:8787 -e GATEWAY_API_KEYS='[...]' -e REDIS_URL=redis://redis:6379 tool-gateway
# Migrate only (once, before the instances start; see deploy/): docker run --rm -e DATABASE_URL=... tool-gateway node dist/composition/migrate.js

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY domain ./domain
COPY ports ./ports
COPY application ./application
COPY adapters ./adapters
COPY composition ./composition
# The build bundles the reference page's script (scripts/build-docs-script.ts).
COPY scripts ./scripts
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
# GATEWAY_DATA_DIR: the embedded store (connections, audit log, its generated encryption.key) when DATABASE_URL
# is not set. The app folder belongs to root and stays read-only to the server; the data folder is the one
# place it writes (besides the upload spool in /tmp), owned by the non-root user and declared a volume so that
# what it holds outlives the container. test/deploy/dockerfile.test.ts checks these lines.
# The heap limit bounds the server's RSS (docs/operations.md, Memory under load): V8 otherwise lets its old
# generation fill with garbage to several times what is live before collecting, sized to the node, not the pod.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8787 GATEWAY_DATA_DIR=/var/lib/tool-gateway \
    NODE_OPTIONS=--max-old-space-size=384
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /var/lib/tool-gateway && chown node:node /var/lib/tool-gateway && chmod 0700 /var/lib/tool-gateway
VOLUME ["/var/lib/tool-gateway"]
USER node
EXPOSE 8787
HEALTHCHECK --interval=15s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM from the orchestrator starts a graceful shutdown (GATEWAY_SHUTDOWN_GRACE_MS).
CMD ["node", "dist/composition/main.js"]
