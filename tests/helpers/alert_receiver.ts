/**
 * A loopback receiver of alert webhooks: records every delivery (headers,
 * raw body, whether the signature verifies with the shared secret), can
 * refuse the first N deliveries with 503, and can be stopped and started
 * again on the same port (a receiver down across a policyd restart).
 *
 * @module
 */
import { verifySignature } from "../../src/approvals/webhook.ts";

/** One delivery the receiver saw. */
export interface ReceivedAlert {
  key: string | null;
  event: string | null;
  body: Record<string, unknown>;
  signatureOk: boolean;
  accepted: boolean;
}

/** A receiver. */
export interface AlertReceiver {
  port: number;
  url: string;
  seen: ReceivedAlert[];
  /** Keys accepted (2xx), in order; a key twice would be a duplicate delivery. */
  accepted(): string[];
  /** Refuse the next `n` deliveries with 503. */
  failNext(n: number): void;
  start(): void;
  stop(): Promise<void>;
}

/** Creates a receiver (started unless `started` is false) on `port` (0: a free one). */
export function createAlertReceiver(
  secret: string,
  options: { port?: number; started?: boolean } = {},
): AlertReceiver {
  const seen: ReceivedAlert[] = [];
  let failures = 0;
  let server: Deno.HttpServer<Deno.NetAddr> | null = null;
  let port = options.port ?? 0;
  const handler = async (request: Request) => {
    const raw = new Uint8Array(await request.arrayBuffer());
    const accept = failures === 0;
    if (!accept) failures--;
    seen.push({
      key: request.headers.get("x-policyd-delivery"),
      event: request.headers.get("x-policyd-event"),
      body: JSON.parse(new TextDecoder().decode(raw)),
      signatureOk: await verifySignature(
        secret,
        raw,
        request.headers.get("x-policyd-signature-256"),
      ),
      accepted: accept,
    });
    return accept ? new Response("ok") : new Response("not now", { status: 503 });
  };
  const receiver: AlertReceiver = {
    get port() {
      return port;
    },
    get url() {
      return `http://127.0.0.1:${port}/hook`;
    },
    seen,
    accepted: () => seen.filter((s) => s.accepted).map((s) => s.key ?? ""),
    failNext: (n) => void (failures = n),
    start() {
      server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, handler);
      port = server.addr.port;
    },
    async stop() {
      await server?.shutdown();
      server = null;
    },
  };
  if (options.started !== false) receiver.start();
  return receiver;
}

/** Polls `condition` every 20 ms until it holds or `timeoutMs` passes (then throws `what`). */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
