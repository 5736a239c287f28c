# syntax=docker/dockerfile:1
# The svc image: `docker build -t svc .`, then `docker compose up` (compose.yaml, docs/operating.md).

# Build stage: every dependency, the TypeScript compiler and Vite (the console), then only the production
# dependencies are kept.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY console ./console
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: the built service, its production dependencies, migrations and data files; no compiler, no npm cache.
FROM node:24-slim AS runtime
ENV SVC_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/svc
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY migrations ./migrations
COPY data ./data
# The files belong to root and are read-only for the service; only DATA_DIR (embedded database) is its own.
RUN mkdir -p /var/lib/svc && chown node:node /var/lib/svc
USER node
EXPOSE 3000
VOLUME ["/var/lib/svc"]
# node:24-slim has no curl: Node's own fetch asks /readyz (database, migrations, Redis, signing keys).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/svc.cjs"]
CMD ["serve"]
