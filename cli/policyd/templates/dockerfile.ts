/**
 * The image recipe `policyd init` writes as `Dockerfile`. It is built with a
 * policyd source checkout as the build context (compose.yaml points there),
 * on the official Deno image, and runs as the image's non-root `deno` user.
 * Kept as a TS string so `deno compile` carries it in the module graph.
 *
 * @module
 */

/** Deno version of the image; the same version the project pins. */
export const DENO_IMAGE = "denoland/deno:2.9.6";

/** Run-time permissions of the server inside the container. */
export const CONTAINER_PERMISSIONS =
  "--allow-net --allow-env --allow-read --allow-write --allow-sys --allow-run=git --unstable-cron";

/** The Dockerfile text. */
export const DOCKERFILE = `# policyd image, written by \`policyd init\`.
# Build context: a policyd source checkout, e.g.
#   docker build -f ./Dockerfile -t policyd /path/to/policyd
# (compose.yaml does this for you: see POLICYD_SOURCE in .env.example).
FROM ${DENO_IMAGE}

# git is needed by the local_git and github proposers only.
RUN apt-get update \\
 && apt-get install -y --no-install-recommends git ca-certificates \\
 && rm -rf /var/lib/apt/lists/* \\
 && mkdir -p /app /data /registry \\
 && chown deno:deno /app /data /registry

WORKDIR /app
USER deno

COPY --chown=deno:deno deno.json deno.lock ./
COPY --chown=deno:deno src/ ./src/
COPY --chown=deno:deno cli/ ./cli/
COPY --chown=deno:deno registry/ ./registry/
COPY --chown=deno:deno dashboards/ ./dashboards/

# Download and type-check every dependency at build time, so the container
# needs no registry access when it starts.
RUN deno install --frozen --entrypoint cli/policyd.ts

ENV POLICY_HOST=0.0.0.0 \\
    POLICY_PORT=8765 \\
    POLICY_DB_PATH=/data/policyd.db \\
    REGISTRY_PATH=/registry/registry.yaml

EXPOSE 8765
VOLUME ["/data", "/registry"]

# The image has no curl: the health check is policyd's own selftest.
HEALTHCHECK --interval=30s --timeout=10s --start-period=20s --retries=3 \\
  CMD deno run --allow-net --allow-env --allow-read cli/policyd.ts selftest --url "http://127.0.0.1:\${POLICY_PORT}"

ENTRYPOINT ["deno", "run", ${
  CONTAINER_PERMISSIONS.split(" ").map((flag) => JSON.stringify(flag)).join(", ")
}, "cli/policyd.ts"]
CMD ["serve"]
`;
