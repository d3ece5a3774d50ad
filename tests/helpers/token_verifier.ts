/**
 * A loopback token verifier for org mode's `webhook` authentication backend
 * (the fake of an identity service): it knows one token and answers its
 * identity, 401 for any other. `env` holds the settings that point policyd
 * at it; {@link startOrgIndex} starts an org-mode policyd in front of a fake
 * index with one.
 *
 * @module
 */
import { startFakeIndex } from "./fake_index.ts";
import { startTestServer, type TestServer } from "./server.ts";

/** A running verifier. */
export interface TokenVerifier {
  /** `AUTH_ENABLED`, `AUTH_BACKEND`, `AUTH_VERIFY_URL` for a test server. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Starts a verifier that accepts `token` as `identity`. */
export function startTokenVerifier(
  token: string,
  identity: { id: string; groups: string[] } = { id: "ci-bot", groups: [] },
): TokenVerifier {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    return body.token === token ? Response.json(identity) : Response.json({}, { status: 401 });
  });
  return {
    env: {
      AUTH_ENABLED: "true",
      AUTH_BACKEND: "webhook",
      AUTH_VERIFY_URL: `http://127.0.0.1:${server.addr.port}/verify`,
    },
    close: () => server.shutdown(),
  };
}

/** An org-mode policyd in front of a fake index serving `goodpkg` 1.0, with its verifier. */
export interface OrgIndex {
  server: TestServer;
  close(): Promise<void>;
}

/** Starts an org-mode test server whose verifier accepts `token`; `env` adds settings. */
export async function startOrgIndex(
  registryYaml: string,
  token: string,
  env: Record<string, string> = {},
): Promise<OrgIndex> {
  const index = await startFakeIndex([{ name: "goodpkg", version: "1.0" }]);
  const verifier = startTokenVerifier(token);
  const server = await startTestServer({
    registryYaml,
    env: { INDEX_UPSTREAM_URL: index.simpleUrl, ...verifier.env, ...env },
  });
  return {
    server,
    close: async () => {
      await server.close();
      await verifier.close();
      await index.close();
    },
  };
}
