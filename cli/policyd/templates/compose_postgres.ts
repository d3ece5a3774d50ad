/**
 * The multi-instance stack `policyd init --postgres` writes: two policyd
 * replicas behind Caddy (`Caddyfile`), PostgreSQL for the shared audit log,
 * approvals and scanner claims, and Redis for the shared lookup cache. Both
 * replicas mount the same registry directory (the `local_file` proposer's
 * source of truth); see docs/deployment.md.
 *
 * @module
 */
import { type ComposeOptions, policydImage, REDIS_SERVICE } from "./compose.ts";

/** Renders compose.yaml of the multi-instance stack. */
export function composePostgresYaml(options: ComposeOptions): string {
  return `# policyd multi-instance stack, written by \`policyd init --postgres\`.
# Start:   cp .env.example .env   (set POSTGRES_PASSWORD)   &&   docker compose up -d --build
# Check:   policyd selftest --url http://127.0.0.1:\${POLICY_PUBLISHED_PORT:-8765}
# Scale:   add a policyd-3 service like policyd-2 and list it in the Caddyfile.
name: policyd

x-policyd: &policyd
${policydImage(options, "  ")}
  volumes:
    # One registry file for every replica: the local_file proposer writes it, all reload it.
    - ./registry:/registry
  depends_on:
    postgres:
      condition: service_healthy
    redis:
      condition: service_healthy
  # Health: the image's HEALTHCHECK (policyd selftest); Caddy also probes /api/v1/health.
  restart: unless-stopped

x-policyd-environment: &policyd-environment
  # Fixed by the stack: paths inside the container and the services below.
  POLICY_HOST: 0.0.0.0
  POLICY_PORT: "8765"
  REGISTRY_PATH: /registry/registry.yaml
  DATABASE_URL: postgres://policyd:\${POSTGRES_PASSWORD:-policyd}@postgres:5432/policyd
  REDIS_URL: \${REDIS_URL:-redis://redis:6379}
  # Only the proxy reaches the replicas (no published ports), so the stack network is trusted.
  TRUSTED_PROXIES: \${TRUSTED_PROXIES:-10.0.0.0/8,172.16.0.0/12,192.168.0.0/16}

services:
  proxy:
    image: caddy:2-alpine
    ports:
      # Loopback only: put TLS and authentication in front before widening this.
      - "127.0.0.1:\${POLICY_PUBLISHED_PORT:-8765}:8765"
    volumes:
      - ./Caddyfile:/etc/caddy/Caddyfile:ro
    depends_on:
      - policyd-1
      - policyd-2
    restart: unless-stopped

  policyd-1:
    <<: *policyd
    environment:
      <<: *policyd-environment
      INSTANCE_ID: policyd-1

  policyd-2:
    <<: *policyd
    environment:
      <<: *policyd-environment
      INSTANCE_ID: policyd-2

  postgres:
    image: postgres:16-alpine
    environment:
      POSTGRES_USER: policyd
      POSTGRES_PASSWORD: \${POSTGRES_PASSWORD:-policyd}
      POSTGRES_DB: policyd
    volumes:
      - policyd-postgres:/var/lib/postgresql/data
    healthcheck:
      test: ["CMD", "pg_isready", "-U", "policyd", "-d", "policyd"]
      interval: 5s
      timeout: 3s
      retries: 10
    restart: unless-stopped

${REDIS_SERVICE}
volumes:
  policyd-postgres:
`;
}

/** The replicas' service names, in the order the Caddyfile lists them. */
export const REPLICAS = ["policyd-1", "policyd-2"] as const;

/** Renders the Caddyfile: round robin over the replicas, health-checked through `/api/v1/health`. */
export function caddyfile(): string {
  return `# Caddy in front of the policyd replicas, written by \`policyd init --postgres\`.
# A replica whose /api/v1/health is not 200 (e.g. its database is unreachable) gets no traffic.
# The probe names Host localhost: policyd answers only to allow-listed hosts (ALLOWED_HOSTS).
:8765 {
	reverse_proxy ${REPLICAS.map((r) => `${r}:8765`).join(" ")} {
		lb_policy round_robin
		health_uri /api/v1/health
		health_headers {
			Host localhost
		}
		health_interval 5s
		health_timeout 3s
		fail_duration 30s
	}
}
`;
}
