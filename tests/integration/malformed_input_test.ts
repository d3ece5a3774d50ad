import { equal, ok } from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { auditCount } from "../helpers/db.ts";

async function expectProblem(res: Response, status: number) {
  equal(res.status, status, `expected ${status}, got ${res.status}`);
  equal(res.headers.get("content-type"), "application/problem+json");
  const body = await res.json();
  equal(body.status, status);
  ok(
    typeof body.type === "string" && typeof body.title === "string" &&
      typeof body.detail === "string",
  );
  return body;
}

Deno.test("malformed input gets a 4xx problem+json and never a 5xx", async (t) => {
  const server = await startTestServer();
  const api = `${server.url}/api/v1`;
  const post = (path: string, body: BodyInit, type = "application/json") =>
    fetch(api + path, { method: "POST", headers: { "content-type": type }, body });
  try {
    const cases: Array<[string, () => Promise<Response>, number]> = [
      ["missing package", () => fetch(`${api}/evaluate`), 400],
      ["empty package", () => fetch(`${api}/evaluate?package=`), 400],
      [
        "invalid package name",
        () => fetch(`${api}/evaluate?package=${encodeURIComponent("../../etc/passwd")}`),
        400,
      ],
      [
        // A range alone is judged at the release it installs (issue 27); with a version too it is a 400.
        "range and version",
        () => fetch(`${api}/evaluate?package=${encodeURIComponent("requests>=2")}&version=2.0`),
        400,
      ],
      ["invalid version", () => fetch(`${api}/evaluate?package=requests&version=latest`), 400],
      [
        "pin contradicts version",
        () => fetch(`${api}/evaluate?package=requests==1.0&version=2.0`),
        400,
      ],
      [
        "invalid project",
        () => fetch(`${api}/evaluate?package=requests&project=${encodeURIComponent("a b")}`),
        400,
      ],
      [
        "invalid source header",
        () =>
          fetch(`${api}/evaluate?package=requests`, { headers: { "x-policy-source": "robot" } }),
        400,
      ],
      ["bad JSON", () => post("/evaluate/batch", "{not json"), 400],
      ["empty body", () => post("/evaluate/batch", ""), 400],
      ["wrong shape", () => post("/evaluate/batch", JSON.stringify({ packages: "requests" })), 400],
      [
        "bad item in batch",
        () =>
          post(
            "/evaluate/batch",
            JSON.stringify({ packages: [{ package: "ok" }, { package: "" }] }),
          ),
        400,
      ],
      [
        "batch over 500",
        () =>
          post(
            "/evaluate/batch",
            JSON.stringify({
              packages: Array.from({ length: 501 }, () => ({ package: "requests" })),
            }),
          ),
        400,
      ],
      ["oversize body", () => post("/evaluate/batch", "x".repeat(1024 * 1024 + 1)), 413],
      ["unknown route", () => fetch(`${api}/nope`), 404],
      ["invalid report window", () => fetch(`${api}/reports/legal?days=-3`), 400],
      [
        "parse-yaml syntax error",
        () => post("/registry/parse-yaml", "packages: [", "text/yaml"),
        422,
      ],
      [
        "parse-yaml invalid rule",
        () => post("/registry/parse-yaml", "packages: [{name: x, status: nope}]", "text/yaml"),
        422,
      ],
      [
        "parse-yaml JSON without yaml",
        () => post("/registry/parse-yaml", JSON.stringify({ text: "x" })),
        400,
      ],
    ];
    for (const [name, call, status] of cases) {
      await t.step(name, async () => {
        const res = await call();
        ok(res.headers.get("x-request-id")?.startsWith("req-"), "problems carry the request id");
        await expectProblem(res, status);
      });
    }
    equal(auditCount(server.dbPath), 0, "rejected requests write no audit rows");
  } finally {
    await server.close();
  }
});

Deno.test("parse-yaml returns ok with the compiled registry, or 422 with ok:false and path-qualified errors", async () => {
  const server = await startTestServer();
  try {
    const good = await fetch(`${server.url}/api/v1/registry/parse-yaml`, {
      method: "POST",
      headers: { "content-type": "text/yaml" },
      body: "packages: [{name: Foo_Bar, status: approved}]",
    });
    equal(good.status, 200);
    const body = await good.json();
    equal(body.ok, true);
    equal(body.registry.packages[0].name, "foo-bar");
    const bad = await fetch(`${server.url}/api/v1/registry/parse-yaml`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        yaml: "packages: [{name: a, status: approved}, {name: b, status: x}]",
      }),
    });
    const problem = await expectProblem(bad, 422);
    equal(problem.ok, false);
    equal(problem.errors[0].path, "packages[1].status");
  } finally {
    await server.close();
  }
});

Deno.test("POST /registry/reload with an invalid file answers 200 ok:false and keeps serving the old registry", async () => {
  const server = await startTestServer();
  try {
    await Deno.writeTextFile(
      server.registryPath,
      "packages: [{name: pycrypto, status: whatever}]\n",
    );
    const res = await fetch(`${server.url}/api/v1/registry/reload`, { method: "POST" });
    equal(res.status, 200);
    const result = await res.json();
    equal(result.ok, false);
    equal(result.previous_version, "2026.11.21");
    const still = await (await fetch(`${server.url}/api/v1/evaluate?package=pycrypto`)).json();
    equal(still.verdict, "DENIED");
    equal(still.registry_version, "2026.11.21");
  } finally {
    await server.close();
  }
});
