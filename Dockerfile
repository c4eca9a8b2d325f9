# Engram as a container (docs/operations.md). Multi-stage: the production dependencies are
# installed in one stage, the server's bundle, the memory page and the word caches are built in
# another (with the dev tools), and both are copied into a slim runtime stage that runs
# `npm start`'s bundle as the unprivileged `node` user.
#   docker build -t engram .
#   docker run -p 4000:4000 -v engram-data:/data engram            # embedded PGlite in /data
#   docker compose up -d --wait                                      # PostgreSQL + two engram replicas
# glibc (Debian) base: LanceDB and onnxruntime ship glibc binaries.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the project's own `prepare` builds with dev tools this stage has not got (the
# build stage below does it); the dependencies need no install script of their own (checked
# without Docker: this install, then the server, a remember with the default embedder, /readyz).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# What `npm ci` builds on a checkout: the server's bundle (dist/server), the memory page
# (web/dist) and the word caches (node_modules/.cache/engram). Its dev tools stay in this stage.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    ENGRAM_HOST=0.0.0.0 \
    PORT=4000 \
    ENGRAM_DATA_DIR=/data
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/node_modules/.cache/engram ./node_modules/.cache/engram
COPY --from=build --chown=root:root /app/dist/server ./dist/server
COPY --from=build --chown=root:root /app/web/dist ./web/dist
COPY package.json ./
# The operator CLI (`node bin/engram.js <command>`) runs the sources through tsx.
COPY bin ./bin
COPY src ./src
COPY adapters ./adapters
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4000
# Ready = store reachable, migrations applied, embedder loaded, engine or its fallback up.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM: graceful shutdown (stop accepting, subscriptions closed with 1001, in-flight requests finish).
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]
