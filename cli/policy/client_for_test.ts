import assert from "node:assert/strict";
import { ClientError } from "./exit_codes.ts";
import { clientFor } from "./client_for.ts";
import { bufferedIo as ioIn, writePolicyToml } from "./_testing.ts";

Deno.test("clientFor() reads .policy.toml and sends the command's source, agent and token", async () => {
  const seen: Headers[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    seen.push(request.headers);
    return Response.json({ status: "ok" });
  });
  const dir = await Deno.makeTempDir({ prefix: "policy-client-for-" });
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    await writePolicyToml(dir, url, `mode = "org"\napi_key_env_var = "MY_KEY"\n`);
    const env = { MY_KEY: "s3cret", POLICY_AGENT_VERSION: "4" };
    const { client, config } = await clientFor(ioIn(dir, env), {
      source: "audit",
      agentModel: "claude-opus",
    });
    assert.equal(config.project, "demo");
    assert.equal(client.serverUrl, url);
    await client.health();
    assert.equal(seen[0].get("authorization"), "Bearer s3cret");
    assert.equal(seen[0].get("x-policy-source"), "audit");
    assert.equal(seen[0].get("x-policy-agent-model"), "claude-opus", "the flag wins");
    assert.equal(seen[0].get("x-policy-agent-version"), "4", "else the environment");
    await assert.rejects(
      clientFor(ioIn(dir, {}), { source: "check" }),
      (e) => e instanceof ClientError && e.code === "config" && /MY_KEY/.test(e.message),
    );
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
