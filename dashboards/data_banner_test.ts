import assert from "node:assert/strict";
import { startTestServer } from "../tests/helpers/server.ts";

const ALL_CLEAR = [
  "No CVE denials in this window.",
  "No CVEs behind denials in this window.",
  "Every evaluated package had a recognisable license.",
];

async function page(url: string): Promise<string> {
  const response = await fetch(url);
  assert.equal(response.status, 200);
  return await response.text();
}

Deno.test("the security and legal pages never print an all-clear over missing data", async (t) => {
  // No upstream URLs: every lookup of this server is unavailable.
  const server = await startTestServer();
  try {
    await t.step("with no evaluation yet, the all-clear sentences stand", async () => {
      const security = await page(`${server.url}/dashboard/security`);
      assert.ok(!security.includes('data-testid="data-banner"'));
      assert.ok(security.includes(ALL_CLEAR[0]));
    });
    const res = await fetch(`${server.url}/api/v1/evaluate?package=requests`);
    assert.equal((await res.json()).data.vulnerabilities.status, "unavailable");
    await t.step(
      "after an evaluation without data: banner with the count, no all-clear",
      async () => {
        for (const path of ["/dashboard/security", "/dashboard/legal"]) {
          const html = await page(`${server.url}${path}`);
          assert.ok(html.includes('data-testid="data-unavailable"'), path);
          assert.match(html, /<strong>1<\/strong> of 1\s*evaluations/, path);
          for (const sentence of ALL_CLEAR) {
            assert.ok(!html.includes(sentence), `${path}: ${sentence}`);
          }
          assert.ok(html.includes("so this is not an all-clear"), path);
        }
      },
    );
  } finally {
    await server.close();
  }
});
