import assert from "node:assert/strict";
import { parse } from "yaml";
import { loadConventions, renderConventions, renderSettings } from "@policyd/workflows/runner";
import * as enums from "../api/enums.ts";
import { AUDIT_VERDICTS } from "../api/audit.ts";
import { settingsSchema } from "../settings.ts";
import { validateRegistry } from "../registry/schema.ts";
import { EXCEPTION_EXAMPLE, RULE_EXAMPLE } from "./formats.ts";

const MODULE = "src/workflows/conventions.ts";

Deno.test("every enumeration value of the contract is listed with a meaning of its own", async () => {
  const conventions = await loadConventions(MODULE, Deno.cwd());
  const listed = new Map<string, string>();
  for (const e of conventions.enumerations ?? []) {
    for (const value of e.values) {
      assert.equal(typeof value, "object", `${e.name}: ${value} has a meaning`);
      if (typeof value === "object") listed.set(value.name, value.meaning);
    }
  }
  const values = [...Object.values(enums).filter(Array.isArray).flat(), ...AUDIT_VERDICTS];
  for (const value of values as string[]) {
    assert.ok(listed.get(value)?.trim(), `${value} is listed with a meaning`);
  }
  for (const value of ["queued", "skipped", "CVE_ALERT", "index", "DENIAL_TYPOSQUAT", "yanked"]) {
    assert.ok(listed.has(value), value);
  }
  const text = renderConventions(conventions);
  assert.match(text, /\n {2}- `queued`: an approval request under local_file or local_git/);
});

Deno.test("the settings section lists every variable the server parses", async () => {
  const conventions = await loadConventions(MODULE, Deno.cwd());
  const settings = conventions.settings!;
  assert.deepEqual(
    settings.variables.map((v) => v.name).sort(),
    Object.keys(settingsSchema.shape).sort(),
  );
  const text = renderSettings(settings, [
    { name: "Mirror", anchor: "workflow-mirror", requires: ["PYPI_URL pointing at a mirror"] },
  ]);
  assert.match(
    text,
    /\| `PYPI_URL` \| URL \| `https:\/\/pypi\.org` \| .* \| \[Mirror\]\(#workflow-mirror\) \|/,
  );
  assert.match(text, /\*\*Proposer auto-detection\*\*/);
  assert.match(text, /`policyd quickstart` sets REGISTRY_PROPOSER=local_file/);
});

Deno.test("the formats' examples are accepted by the registry validator", async () => {
  const conventions = await loadConventions(MODULE, Deno.cwd());
  const names = (conventions.formats ?? []).map((f) => f.name);
  assert.equal(names.length, 3);
  const document = { version: "1", ...parse(RULE_EXAMPLE), ...parse(EXCEPTION_EXAMPLE) };
  const result = validateRegistry(document);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
  const audit = conventions.formats!.find((f) => f.name.startsWith("audit query"))!;
  assert.match(audit.schema!, /^limit: rows per page \(≥ 1; ≤ 500; default 50\)$/m);
  assert.match(audit.schema!, /^source: .*one of check, hook, precommit, audit, api, mcp, index/m);
  assert.match(audit.meaning, /`project=\*` lists every project/);
});
