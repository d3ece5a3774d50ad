/**
 * `POST /registry/webhook`: guarded by the HMAC signature only (no
 * authentication). See `src/approvals/webhook.ts` for the logic.
 *
 * @module
 */
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../deps.ts";
import { ProblemError } from "../problem.ts";
import { bodyBytes } from "../validate.ts";

/** The challenge of a 401: the delivery must carry GitHub's HMAC signature. */
export const WEBHOOK_CHALLENGE =
  'HMAC-SHA256 realm="policyd-webhook", header="X-Hub-Signature-256"';

/** The merge webhook route. */
export function webhookRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.post("/registry/webhook", async (c) => {
    const body = await bodyBytes(c);
    const outcome = await deps.webhook.handle(c.req.raw.headers, body);
    switch (outcome.kind) {
      case "no-secret":
        throw new ProblemError(
          403,
          "webhook-disabled",
          "the webhook is disabled: REGISTRY_WEBHOOK_SECRET is not set",
        );
      case "bad-signature":
        throw new ProblemError(
          401,
          "bad-signature",
          "missing or invalid X-Hub-Signature-256",
          {},
          { "www-authenticate": WEBHOOK_CHALLENGE },
        );
      case "bad-request":
        throw new ProblemError(400, "invalid-request", outcome.detail);
      case "duplicate":
        return c.json({ duplicate: true, delivery: outcome.delivery });
      case "ping":
        return c.json({ ok: true, event: "ping" });
      case "ignored":
        return c.json({ ignored: true, event: outcome.event, action: outcome.action }, 202);
      case "pull-failed":
        throw new ProblemError(
          502,
          "registry-pull-failed",
          `${outcome.detail}; the registry is unchanged`,
          {
            ...(outcome.errors ? { errors: outcome.errors } : {}),
          },
        );
      case "reloaded":
        return c.json({ reload: outcome.reload, sync: outcome.sync });
    }
  });
  return routes;
}
