/**
 * The client's generated validators (cli/policy/generated/, from the zod
 * schemas in cli/policy) against a real policyd: they take its answers
 * themselves, so `policy check`, `hook` and `precommit` never load zod for
 * them, and the client reads each answer exactly as the zod schema does.
 *
 * @module
 */
import assert from "node:assert/strict";
import { clientFromConfig } from "../../cli/policy/api_client.ts";
import { resolveConfig } from "../../cli/policy/config.ts";
import { BatchSchema, EvaluationSchema } from "../../cli/policy/evaluation_schema.ts";
import { batch, evaluation } from "../../cli/policy/generated/validators.js";
import { startTestServer } from "../helpers/server.ts";

const PACKAGES = ["requests", "pyyaml==5.1", "pycrypto", "httpx", "never-heard-of-it", "flask"];

Deno.test("the generated validators accept policyd's real answers, read as zod reads them", async () => {
  const server = await startTestServer();
  try {
    for (const spec of PACKAGES) {
      const url = `${server.url}/api/v1/evaluate?package=${encodeURIComponent(spec)}`;
      const body = await (await fetch(url)).json();
      const zod = EvaluationSchema.parse(structuredClone(body));
      assert.ok(evaluation(body), `${spec}: ${JSON.stringify(body)}`);
      assert.deepEqual(body, zod);
    }
    const answer = await fetch(`${server.url}/api/v1/evaluate/batch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ packages: PACKAGES.map((p) => ({ package: p })) }),
    });
    const body = await answer.json();
    const zod = BatchSchema.parse(structuredClone(body));
    assert.ok(batch(body));
    assert.deepEqual(body, zod);

    // The production path: .policy.toml settings, the plain HTTP/1.1 transport, the generated validator.
    const config = await resolveConfig({ project: "p", server_url: server.url }, "/x", null);
    const client = clientFromConfig(config, { source: "check", env: () => undefined });
    const result = await client.evaluate("pycrypto");
    assert.equal(result.verdict, "DENIED");
    assert.deepEqual(result, EvaluationSchema.parse({ ...result }));
    const results = await client.evaluateBatch(PACKAGES.map((p) => ({ package: p })));
    assert.deepEqual(results.map((r) => r.package), zod.results.map((r) => r.package));
  } finally {
    await server.close();
  }
});
