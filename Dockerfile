# syntax=docker/dockerfile:1
# The store as one image: docker build -t store . && docker run -p 7400:7400 -e SESSION_SECRET=... -e CREDENTIALS_KEY=... -v store-data:/data store
ARG NODE_IMAGE=node:20-bookworm-slim

# All dependencies, for the build. `npm install` rather than `npm ci`: see STACK.md (lockfile and optional binaries).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build

# Production dependencies only; tsx is one of them, since server.ts and api/ run as TypeScript.
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=7400 \
    DATA_DIR=/data
WORKDIR /app
# Code and dependencies stay root-owned: the server's user can read them but not change them.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json tsconfig.json server.ts ./
COPY api ./api
COPY contract ./contract
COPY server ./server
COPY --from=build /app/build ./build
RUN mkdir -p /data && chown node:node /data
# The embedded database, the generated outbox and anything else that must outlive the container.
VOLUME /data
USER node
EXPOSE 7400
# The slim image has no curl; node's fetch does the same job.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 7400) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself, not npm, so SIGTERM reaches server.ts, which finishes in-flight requests and exits 0.
CMD ["node", "--import", "tsx", "server.ts"]
