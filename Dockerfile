# Marginalia's container image (docs/deployment.md, "Container"). Not built in CI here: these machines run no Docker
# engine; test/unit/container-files.test.ts checks what can be checked without one.
#
# Build stage: every dependency, the TypeScript build. better-sqlite3 fetches a prebuilt binary where it can reach
# GitHub, and otherwise compiles from source: the build tools are here so both work.
FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# npm ci runs the package's `prepare` (the build), so the sources come first.
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src src
COPY client client
RUN npm ci && npm prune --omit=dev

# Runtime stage: the build, production dependencies only, the documents the server links from GET /; no compiler.
FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=sqlite:/var/lib/marginalia/marginalia.db
WORKDIR /app
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY package.json README.md CHANGELOG.md SECURITY.md ./
COPY docs docs
# A user of its own, owning only the data folder; the code stays root's and read-only to it.
RUN groupadd --system marginalia && useradd --system --gid marginalia --home-dir /var/lib/marginalia marginalia \
  && mkdir -p /var/lib/marginalia && chown marginalia:marginalia /var/lib/marginalia && chmod 700 /var/lib/marginalia
USER marginalia
VOLUME /var/lib/marginalia
EXPOSE 8080
# No curl in a slim image: Node's own fetch asks /readyz (200 once the database is ready and migrated).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/main.js", "serve"]
