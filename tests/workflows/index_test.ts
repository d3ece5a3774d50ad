/**
 * Workflow of issue 28: installers resolve through the policy index, which
 * leaves out every file of a version the policy denies and audits each
 * download.
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import { AgentTestClient, stepBoundary, workflow } from "../../src/workflows/mod.ts";
import { startFakeIndex } from "../helpers/fake_index.ts";
import { workflowApp } from "../helpers/workflow_app.ts";
import { LOOKUPS, QUICKSTART_SERVER } from "../helpers/requires.ts";

const JSON_TYPE = "application/vnd.pypi.simple.v1+json";

interface SimplePage {
  name: string;
  files: Array<{ filename: string; url: string; hashes: Record<string, string> }>;
  versions?: string[];
}

interface AuditPage {
  items: Array<{ package: string; version: string | null; source: string; reason: string }>;
}

Deno.test(
  "install through the policy index",
  workflow(
    "Install through the policy index",
    "Point pip, uv, Poetry or PDM at `/p/{project}/simple/`: project pages list only the files " +
      "of versions the policy allows, a denied project answers 404 with one line why, a denied " +
      "file is 403 even by direct URL, and every download is an audit row (source `index`).",
    async () => {
      // The example registry: pyyaml is version-constrained (>= 6.0.1), pycrypto is banned.
      const index = await startFakeIndex([
        { name: "pyyaml", version: "5.4.1" },
        { name: "pyyaml", version: "6.0.1" },
        { name: "pycrypto", version: "2.6.1" },
      ]);
      const app = await workflowApp("index", { env: { INDEX_UPSTREAM_URL: index.simpleUrl } });
      try {
        const client = new AgentTestClient(app.built.app);
        const page = await client.get("/p/shop-api/simple/pyyaml/", {
          headers: { accept: JSON_TYPE },
        });
        equal(page.status, 200);
        const body = page.json<SimplePage>();
        deepStrictEqual(body.versions, ["6.0.1"]);
        const file = body.files[0];
        equal(file.url, "../../files/pyyaml/pyyaml-6.0.1-py3-none-any.whl");
        await stepBoundary(
          "Installer",
          "Resolve the file URL against the page URL, download it and check files[].hashes.sha256",
          () => {
            equal(
              new URL(file.url, "http://x/p/shop-api/simple/pyyaml/").pathname,
              "/p/shop-api/files/pyyaml/pyyaml-6.0.1-py3-none-any.whl",
            );
          },
        );
        const download = await client.get(
          "/p/shop-api/files/pyyaml/pyyaml-6.0.1-py3-none-any.whl",
        );
        equal(download.status, 200);
        const old = await client.get("/p/shop-api/files/pyyaml/pyyaml-5.4.1-py3-none-any.whl");
        equal(old.status, 403);
        match(old.text(), /below the minimum 6\.0\.1/);
        const banned = await client.get("/p/shop-api/simple/pycrypto/");
        equal(banned.status, 404);
        match(banned.text(), /^policyd: pycrypto is banned/);
        const audit = await client.get("/api/v1/audit", {
          query: { source: "index", project: "shop-api" },
        });
        const rows = audit.json<AuditPage>().items;
        deepStrictEqual(rows.map((r) => [r.package, r.version]), [
          ["pyyaml", "5.4.1"],
          ["pyyaml", "6.0.1"],
        ]);
        match(rows[1].reason, /^index download of pyyaml-6\.0\.1-py3-none-any\.whl/);
      } finally {
        await app.close();
        await index.close();
      }
    },
    {
      requires: [
        QUICKSTART_SERVER,
        "an upstream simple index at INDEX_UPSTREAM_URL (default https://pypi.org/simple/; " +
        "offline, a mirror or a loopback server serving `/simple/<name>/` and its files, as " +
        "this test does)",
        LOOKUPS,
      ],
    },
  ),
);

Deno.test(
  "revalidate a policy index page with its ETag",
  workflow(
    "Revalidate a policy index page with its ETag",
    "An installer that keeps a project page in its HTTP cache (pip does) sends the page's ETag " +
      "back in `If-None-Match`: while the decided page is unchanged the answer is a 304 without " +
      "a body; once the page changes (a registry reload, new facts, another format) the ETag " +
      "differs and the full page is sent.",
    async () => {
      const index = await startFakeIndex([{ name: "pyyaml", version: "6.0.1" }]);
      const app = await workflowApp("index-etag", {
        env: { INDEX_UPSTREAM_URL: index.simpleUrl },
      });
      try {
        const client = new AgentTestClient(app.built.app);
        const path = "/p/shop-api/simple/pyyaml/";
        const first = await client.get(path, { headers: { accept: JSON_TYPE } });
        equal(first.status, 200);
        const etag = first.headers.get("etag");
        match(etag ?? "", /^"[A-Za-z0-9_-]{43}"$/);
        const again = await client.get(path, {
          headers: { accept: JSON_TYPE, "if-none-match": etag! },
        });
        equal(again.status, 304);
        equal(again.headers.get("etag"), etag);
        const html = await client.get(path, {
          headers: { accept: "text/html", "if-none-match": etag! },
        });
        equal(html.status, 200, "another format is another page");
      } finally {
        await app.close();
        await index.close();
      }
    },
    {
      requires: [
        QUICKSTART_SERVER,
        "an upstream simple index at INDEX_UPSTREAM_URL (as in “Install through the policy index”)",
        LOOKUPS,
      ],
    },
  ),
);
