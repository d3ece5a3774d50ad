import assert from "node:assert/strict";
import { parseReportQuery } from "./params.ts";

Deno.test("parseReportQuery() is the one definition of the report query", async (t) => {
  await t.step("defaults, a project, every project", () => {
    assert.deepEqual(parseReportQuery({}), {
      ok: true,
      query: { days: 30, limit: 20, project: null, search: "?days=30" },
    });
    const scoped = parseReportQuery({ days: "7", project: "web" });
    assert.ok(scoped.ok && scoped.query.search === "?days=7&project=web");
    const all = parseReportQuery({ project: "*" });
    assert.ok(all.ok && all.query.project === null);
  });

  await t.step("an empty project is absent: the header names it, else every project", () => {
    const blank = parseReportQuery({ project: "  " });
    assert.ok(blank.ok && blank.query.project === null);
    const header = parseReportQuery({ project: "" }, "api");
    assert.ok(header.ok && header.query.project === "api");
    const query = parseReportQuery({ project: "web" }, "api");
    assert.ok(query.ok && query.query.project === "web");
    const star = parseReportQuery({}, "*");
    assert.ok(star.ok && star.query.project === null);
  });

  await t.step("bad values name their parameter", () => {
    assert.deepEqual(parseReportQuery({ days: "0" }).ok, false);
    const bad = parseReportQuery({ days: "x", limit: "5000" });
    assert.ok(!bad.ok);
    assert.deepEqual(bad.errors.map((e) => e.path), ["days", "limit"]);
  });
});
