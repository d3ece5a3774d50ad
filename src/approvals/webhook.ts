/**
 * The merge webhook (SPEC §7, §15.9, §15.21): HMAC-SHA256 over the raw body
 * bytes, compared in constant time; a merged pull request pulls the merged
 * registry onto `REGISTRY_PATH` and runs the one reload routine.
 *
 * @module
 */
import type { Logger } from "../log/logger.ts";
import type { Proposer, SyncOutcome } from "../proposers/types.ts";
import type { ReloadResult } from "../registry/live.ts";
import { DeliveryLog } from "./deliveries.ts";

const encoder = new TextEncoder();

/** Compares two byte arrays in time that depends only on their (public) lengths. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

function hexToBytes(hex: string): Uint8Array | null {
  if (!/^[0-9a-f]{64}$/i.test(hex)) return null;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** `sha256=<hex>` of the body, as GitHub sends it in `X-Hub-Signature-256`. */
export async function signBody(secret: string, body: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    [
      "sign",
    ],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, body as Uint8Array<ArrayBuffer>),
  );
  return "sha256=" + Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Checks `X-Hub-Signature-256` against the raw body.
 *
 * @example
 * ```ts
 * await verifySignature("It's a Secret to Everybody", new TextEncoder().encode("Hello, World!"),
 *   "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"); // true
 * ```
 */
export async function verifySignature(
  secret: string,
  body: Uint8Array,
  header: string | null | undefined,
): Promise<boolean> {
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header?.trim() ?? "");
  const given = match ? hexToBytes(match[1].toLowerCase()) : null;
  const expected = hexToBytes((await signBody(secret, body)).slice("sha256=".length))!;
  // Compare even when the header is malformed, so timing says nothing about why it failed.
  return timingSafeEqual(given ?? new Uint8Array(32), expected) && given !== null;
}

/** What the webhook decided; the HTTP layer maps it to a status. */
export type WebhookOutcome =
  | { kind: "no-secret" }
  | { kind: "bad-signature" }
  | { kind: "bad-request"; detail: string }
  | { kind: "ping" }
  | { kind: "duplicate"; delivery: string }
  | { kind: "ignored"; event: string; action: string | null }
  | { kind: "reloaded"; sync: string; reload: ReloadResult }
  | { kind: "pull-failed"; detail: string; errors?: Array<{ path: string; message: string }> };

const HANDLED = new Set<WebhookOutcome["kind"]>(["ping", "ignored", "reloaded"]);

/** Handles one delivery. */
export interface WebhookHandler {
  /** Verifies the signature, drops replays, then {@link WebhookHandler.process}es the delivery. */
  handle(headers: Headers, body: Uint8Array): Promise<WebhookOutcome>;
  /** Handles a verified, first-seen delivery. */
  process(headers: Headers, body: Uint8Array): Promise<WebhookOutcome>;
}

/** Dependencies of the webhook handler. */
export interface WebhookDeps {
  /** `REGISTRY_WEBHOOK_SECRET`; null answers every delivery with 403. */
  secret: string | null;
  /**
   * Brings the merged registry onto `REGISTRY_PATH`: the proposer's own
   * `syncMerged`, or the generic `git pull --ff-only` (chosen by `wiring.ts`).
   */
  sync: NonNullable<Proposer["syncMerged"]>;
  reload: () => Promise<ReloadResult>;
  log: Logger;
  /** Delivery ids already handled (`X-GitHub-Delivery`); a replay pulls nothing. */
  deliveries?: DeliveryLog;
}

interface PullRequestPayload {
  action?: unknown;
  pull_request?: { merged?: unknown; number?: unknown; base?: { ref?: unknown } };
  repository?: { default_branch?: unknown };
}

/**
 * Creates the webhook handler.
 *
 * @example
 * ```ts
 * import { silentLogger as log } from "../log/logger.ts";
 * import type { Proposer } from "../proposers/types.ts";
 * import type { LiveRegistry } from "../registry/live.ts";
 * declare const proposer: Required<Proposer>;
 * declare const live: LiveRegistry;
 * declare const request: Request; // a merged pull_request delivery
 * const body = new Uint8Array(await request.arrayBuffer());
 * const webhook = createWebhookHandler({
 *   secret: "It's a Secret to Everybody",
 *   sync: (hint) => proposer.syncMerged(hint),
 *   reload: () => live.reload(),
 *   log,
 * });
 * (await webhook.handle(request.headers, body)).kind; // "reloaded"
 * ```
 */
export function createWebhookHandler(deps: WebhookDeps): WebhookHandler {
  const sync = (hint: { defaultBranch?: string }): Promise<SyncOutcome> => deps.sync(hint);

  const deliveries = deps.deliveries ?? new DeliveryLog();

  const handler: WebhookHandler = {
    async handle(headers, body) {
      if (!deps.secret) return { kind: "no-secret" };
      if (!(await verifySignature(deps.secret, body, headers.get("x-hub-signature-256")))) {
        deps.log.warn("webhook delivery with a bad or missing signature", {});
        return { kind: "bad-signature" };
      }
      const delivery = (headers.get("x-github-delivery") ?? headers.get("x-git-host-delivery"))
        ?.trim().slice(0, 200) ?? "";
      // Without an id a replay cannot be told from a new delivery: refused (issue 34).
      if (!delivery) {
        deps.log.warn("webhook delivery without X-GitHub-Delivery refused", {});
        return {
          kind: "bad-request",
          detail: "missing X-GitHub-Delivery (or X-Git-Host-Delivery) header",
        };
      }
      if (deliveries.has(delivery)) {
        deps.log.info("webhook delivery replayed; nothing pulled", { delivery });
        return { kind: "duplicate", delivery };
      }
      const outcome = await handler.process(headers, body);
      // Only handled deliveries count: a malformed one or a failed pull may be redelivered.
      if (HANDLED.has(outcome.kind)) deliveries.remember(delivery);
      return outcome;
    },
    async process(headers, body) {
      const event = (headers.get("x-github-event") ?? headers.get("x-git-host-event") ?? "").trim();
      if (!event) {
        return {
          kind: "bad-request",
          detail: "missing X-GitHub-Event (or X-Git-Host-Event) header",
        };
      }
      if (event === "ping") return { kind: "ping" };
      let payload: PullRequestPayload;
      try {
        payload = JSON.parse(new TextDecoder().decode(body)) ?? {};
      } catch (error) {
        return { kind: "bad-request", detail: `payload is not JSON: ${(error as Error).message}` };
      }
      const action = typeof payload.action === "string" ? payload.action : null;
      if (
        event !== "pull_request" || action !== "closed" || payload.pull_request?.merged !== true
      ) {
        return {
          kind: "ignored",
          event: event.slice(0, 100),
          action: action?.slice(0, 100) ?? null,
        };
      }
      const branch = payload.repository?.default_branch;
      const outcome = await sync(typeof branch === "string" ? { defaultBranch: branch } : {});
      if (!outcome.ok) {
        deps.log.error("merge webhook could not pull the merged registry", {
          detail: outcome.detail,
        });
        return {
          kind: "pull-failed",
          detail: outcome.detail,
          ...(outcome.errors ? { errors: outcome.errors } : {}),
        };
      }
      const reload = await deps.reload();
      deps.log.info("merge webhook reloaded the registry", {
        pull_request: payload.pull_request?.number,
        sync: outcome.detail,
        ok: reload.ok,
        approved_requests: reload.approved_requests,
      });
      return { kind: "reloaded", sync: outcome.detail, reload };
    },
  };
  return handler;
}
