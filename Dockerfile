# Engram as a container (docs/operations.md). Multi-stage: dependencies are installed in a
# build stage (production only: the TypeScript runs through tsx, a runtime dependency) and
# copied into a slim runtime stage that runs as the unprivileged `node` user.
#   docker build -t engram .
#   docker run -p 4000:4000 -v engram-data:/data engram            # embedded PGlite in /data
#   docker compose up -d --wait                                      # PostgreSQL + two engram replicas
# glibc (Debian) base: LanceDB and onnxruntime ship glibc binaries.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the project's own `prepare` builds the bundle, the web app and the word caches
# with dev tools and sources this stage has not got, and failed it. The image runs the sources
# through tsx (bin/engram.js serve) and needs none of it; the dependencies' own install scripts
# are not needed either (checked without Docker: this install, then `serve`, a remember with the
# default embedder and /readyz 200). The memory page's assets (web/dist) are not in the image.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    ENGRAM_HOST=0.0.0.0 \
    PORT=4000 \
    ENGRAM_DATA_DIR=/data
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY package.json ./
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
CMD ["node", "bin/engram.js", "serve"]
