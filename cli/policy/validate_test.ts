import assert from "node:assert/strict";
import type { z } from "zod";
import {
  GENERATED_JS,
  GENERATED_SCHEMAS,
  generatedValidators,
  validatorModule,
} from "../../tools/gen_validators.ts";
import * as generated from "./generated/validators.js";
import type { GeneratedValidator } from "./generated/validators.js";
import { validate } from "./validate.ts";

Deno.test("cli/policy/generated/ is generated from the zod schemas and up to date (deno task schema)", async () => {
  const files = generatedValidators();
  for (const [url, text] of files) {
    assert.equal(await Deno.readTextFile(url), text, `run \`deno task schema\` (${url.pathname})`);
  }
  assert.deepEqual(Object.keys(generated).sort(), Object.keys(GENERATED_SCHEMAS).sort());
  for (const name of Object.keys(GENERATED_SCHEMAS)) {
    const js = files.get([...files.keys()].find((u) => u.href === validatorModule(name).href)!)!;
    assert.doesNotMatch(js, /\brequire\(|^import /m, "the generated code imports nothing");
    // Each module holds its own validator only, so a command loads just the one it uses.
    assert.deepEqual(js.match(/^export .*$/gm), [`export const ${name} = validate10;`]);
  }
  assert.ok(files.has([...files.keys()].find((u) => u.href === GENERATED_JS.href)!));
});

const data = {
  vulnerabilities: { status: "fresh", fetched_at: "2026-11-23T12:00:00Z" },
  license: { status: "skipped", fetched_at: null },
};
const full = {
  package: "requests",
  version: "2.32.3",
  verdict: "DENIED",
  reason: "CVE-2024-1 (9.8)",
  denial_category: "DENIAL_CVE",
  registry_status: null,
  replacement: "httpx",
  license: "Apache-2.0",
  license_raw: "Apache 2.0",
  latest_version: "2.32.4",
  cves: [{ id: "CVE-2024-1", score: 9.8, aliases: ["GHSA-x"], summary: "bad" }],
  max_cvss: 9.8,
  data,
  exceptions_applied: [{
    package: "requests",
    licenses: ["GPL-3.0"],
    reason: "ok",
    expires: "2027-01-01",
  }],
  registry_version: "2026.11.21",
  audit_id: 7,
};

/** Inputs for each generated validator: [label, value]; valid and invalid mixed. */
const CASES: Record<string, Array<[string, unknown]>> = {
  evaluation: [
    ["a full answer", full],
    ["the minimum: package and verdict", { package: "a", verdict: "ALLOWED" }],
    ["a newer server's extra member", { ...full, new_member: { x: 1 } }],
    ["an extra member inside data (zod strips it)", {
      ...full,
      data: { ...data, license: { ...data.license, extra: 1 } },
    }],
    ["an extra member of a CVE (kept)", { ...full, cves: [{ id: "CVE-1", epss: 0.5 }] }],
    ["an unknown verdict", { ...full, verdict: "MAYBE" }],
    ["no verdict", { package: "a" }],
    ["a null package", { package: null, verdict: "ALLOWED" }],
    ["a fractional audit id", { ...full, audit_id: 1.5 }],
    ["an unsafe integer audit id", { ...full, audit_id: 2 ** 60 }],
    ["a CVE without id", { ...full, cves: [{ score: 1 }] }],
    ["data without license", { ...full, data: { vulnerabilities: data.vulnerabilities } }],
    ["a bad data status", {
      ...full,
      data: { ...data, license: { status: "x", fetched_at: null } },
    }],
    ["a string", "ALLOWED"],
    ["null", null],
    ["an array", [full]],
  ],
  batch: [
    ["two results", { results: [full, { package: "b", verdict: "PROVISIONALLY_ALLOWED" }] }],
    ["no results", { results: [] }],
    ["an extra member (zod strips it)", { results: [], next: 1 }],
    ["a bad result", { results: [{ package: "b" }] }],
    ["no results member", {}],
  ],
  configFile: [
    ["every key", {
      project: "shop",
      server_url: "https://policy.example.com/",
      mode: "org",
      fail_open: false,
      api_key_env_var: "POLICY_KEY",
      auto_request_approval: true,
      timeout_seconds: 2.5,
    }],
    ["nothing", {}],
    ["an http URL with a port", { server_url: "http://127.0.0.1:8765" }],
    ["an ftp URL", { server_url: "ftp://h" }],
    ["an http URL without //", { server_url: "http:h" }],
    ["a URL zod trims (the generated code defers to zod)", { server_url: " http://h " }],
    ["a URL in capitals", { server_url: "HTTP://H" }],
    ["not a URL", { server_url: "http://[" }],
    ["an unknown key", { "fail-open": true }],
    ["an empty project", { project: "" }],
    ["a bad variable name", { api_key_env_var: "1X" }],
    ["a zero time-out", { timeout_seconds: 0 }],
    ["a time-out over 600", { timeout_seconds: 601 }],
    ["a string mode", { mode: "team" }],
  ],
  hookPayload: [
    ["an event", { hook_event_name: "PreToolUse", tool_input: { a: [1] } }],
    ["an empty object", {}],
    ["an array", [{}]],
    ["null", null],
    ["a string", "{}"],
    ["a number", 1],
  ],
};

/** Validators used without a zod fallback: they must agree with zod both ways. */
const EXACT = new Set(["hookPayload"]);

Deno.test("each generated validator accepts only what zod accepts, with zod's output", async (t) => {
  for (const [name, cases] of Object.entries(CASES)) {
    const fast = (generated as Record<string, GeneratedValidator>)[name];
    const schema = GENERATED_SCHEMAS[name];
    for (const [label, value] of cases) {
      await t.step(`${name}: ${label}`, () => {
        const copy = structuredClone(value);
        const zod = schema.safeParse(structuredClone(value));
        const accepted = fast(copy);
        if (accepted) {
          assert.ok(zod.success, "the generated code accepted what zod rejects");
          assert.deepEqual(copy, zod.data);
        }
        if (EXACT.has(name)) assert.equal(accepted, zod.success, "used without fallback");
      });
    }
  }
});

Deno.test("the generated validators take every valid case themselves (zod is not loaded for them)", () => {
  const valid: Array<[string, string]> = [
    ["evaluation", "a full answer"],
    ["evaluation", "the minimum: package and verdict"],
    ["evaluation", "an extra member inside data (zod strips it)"],
    ["batch", "two results"],
    ["configFile", "every key"],
    ["configFile", "an http URL with a port"],
  ];
  for (const [name, label] of valid) {
    const value = CASES[name].find(([l]) => l === label)![1];
    const fast = (generated as Record<string, GeneratedValidator>)[name];
    assert.ok(fast(structuredClone(value)), `${name}: ${label}`);
  }
});

Deno.test("validate() falls back to zod for what the generated code rejects, and words it in one line", async () => {
  const schema = GENERATED_SCHEMAS.configFile as z.ZodType<unknown>;
  const load = () => Promise.resolve(schema);
  assert.deepEqual(await validate(generated.configFile, { server_url: " http://h " }, load), {
    ok: true,
    value: { server_url: "http://h" },
  });
  const unknown = await validate(generated.configFile, { "fail-open": true, x: 1 }, load);
  assert.equal(unknown.ok, false);
  assert.equal(!unknown.ok && unknown.key, "fail-open, x");
  const mode = await validate(generated.configFile, { mode: "team" }, load);
  assert.ok(!mode.ok && mode.key === "mode" && !mode.message.includes("\n"), JSON.stringify(mode));
});
