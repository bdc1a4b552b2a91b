# The API as compiled JavaScript: `docker compose up --build` (docker-compose.yml), or one node with
# `docker run --init -e DATABASE_URL=… -e REDIS_URL=… -e SERVICES=… fiscal-api`.
# Build stage: the TypeScript sources compiled by tsc (tsconfig.build.json) into dist/, which mirrors
# the tree, so paths relative to a module (data/, the certificate worker) stay the same.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
# The build context is what .dockerignore lets through (no tests, benches, var/ or node_modules).
COPY . .
RUN npx tsc -p tsconfig.build.json

# Runtime: production dependencies, the compiled JavaScript and the authority data; no tsx, no sources.
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./
COPY data ./data
# The image's own user (uid 1000), not root. var/ holds what a node writes (e-mails as files, the
# standalone simulator's certificates): created here so a named volume mounted on it is theirs.
RUN mkdir -p var/simulator var/mail && chown -R node:node var
USER node
EXPOSE 3000
# No shell and no npm between the init (`init: true`, `docker run --init`) and node: signals reach
# node, which stops the broker gracefully (server.ts).
HEALTHCHECK --interval=10s --timeout=10s --start-period=60s --retries=3 CMD ["node", "bin/healthcheck.js"]
CMD ["node", "server.js"]
