/**
 * The container stack `policyd init` writes as `compose.yaml`: policyd and
 * Redis, a named volume for the SQLite database, the registry directory
 * bind-mounted so operators (and the local_file proposer) can edit it.
 *
 * @module
 */

/** Where compose finds the image recipe and the policyd source checkout. */
export interface ComposeOptions {
  /** Absolute path of the Dockerfile `init` wrote. */
  dockerfile: string;
  /** Default build context (a policyd checkout); `POLICYD_SOURCE` overrides it. */
  source: string;
  /** Image tag, e.g. `policyd:0.1.0`. */
  image: string;
}

/** The Redis service (the shared lookup cache) of both compose stacks. */
export const REDIS_SERVICE = `  redis:
    image: redis:7-alpine
    command: ["redis-server", "--save", "", "--appendonly", "no", "--maxmemory", "256mb", "--maxmemory-policy", "allkeys-lru"]
    healthcheck:
      test: ["CMD", "redis-cli", "ping"]
      interval: 10s
      timeout: 3s
      retries: 5
    restart: unless-stopped
`;

/**
 * The image, build and env_file keys of a policyd service (both stacks),
 * each line indented by `indent`.
 */
export function policydImage(options: ComposeOptions, indent: string): string {
  return [
    `image: ${JSON.stringify(options.image)}`,
    "build:",
    `  context: \${POLICYD_SOURCE:-${options.source}}`,
    `  dockerfile: ${JSON.stringify(options.dockerfile)}`,
    "env_file:",
    "  - path: .env",
    "    required: false",
  ].map((line) => indent + line).join("\n");
}

/** Renders compose.yaml. */
export function composeYaml(options: ComposeOptions): string {
  return `# policyd container stack, written by \`policyd init\`.
# Start:   cp .env.example .env   (then edit)   &&   docker compose up -d --build
# Check:   policyd selftest --url http://127.0.0.1:\${POLICY_PUBLISHED_PORT:-8765}
name: policyd

services:
  policyd:
${policydImage(options, "    ")}
    environment:
      # Fixed by the stack: paths inside the container and the Redis service.
      POLICY_HOST: 0.0.0.0
      POLICY_PORT: "8765"
      POLICY_DB_PATH: /data/policyd.db
      REGISTRY_PATH: /registry/registry.yaml
      REDIS_URL: \${REDIS_URL:-redis://redis:6379}
    ports:
      # Loopback only: put an authenticating proxy in front before widening this.
      - "127.0.0.1:\${POLICY_PUBLISHED_PORT:-8765}:8765"
    volumes:
      - policyd-data:/data
      - ./registry:/registry
    depends_on:
      redis:
        condition: service_healthy
    restart: unless-stopped

${REDIS_SERVICE}
volumes:
  policyd-data:
`;
}
