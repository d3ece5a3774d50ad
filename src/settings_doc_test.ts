import assert from "node:assert/strict";
import { describeSettings, SETTING_PURPOSES } from "./settings_doc.ts";
import { settingsSchema } from "./settings.ts";

Deno.test("every server variable is described, with its type and default from its schema", () => {
  const described = describeSettings();
  assert.deepEqual(
    described.map((s) => s.name).sort(),
    Object.keys(settingsSchema.shape).sort(),
    "one row per variable the server parses",
  );
  assert.deepEqual(
    Object.keys(SETTING_PURPOSES).sort(),
    Object.keys(settingsSchema.shape).sort(),
    "no purpose of a variable that no longer exists",
  );
  const row = (name: string) => described.find((s) => s.name === name);
  assert.deepEqual(row("PYPI_URL"), {
    name: "PYPI_URL",
    type: "URL",
    default: "https://pypi.org",
    meaning: SETTING_PURPOSES.PYPI_URL as string,
  });
  assert.equal(row("POLICY_PORT")?.default, "8765");
  assert.equal(row("AUTH_ENABLED")?.default, "false");
  assert.match(row("AUTH_ENABLED")!.type, /^boolean/);
  assert.equal(row("LOG_LEVEL")?.type, "one of `debug`, `info`, `warn`, `error`");
  assert.equal(row("RATE_LIMIT_PER_MINUTE")?.type, "integer ≥ 0");
  assert.equal(row("REGISTRY_PATH")?.default, undefined, "unset by default");
  assert.equal(row("ALLOWED_ORIGINS")?.default, undefined, "an empty list is unset");
  for (const upstream of ["OSV_API_URL", "PYPI_URL", "INDEX_UPSTREAM_URL", "GITHUB_API_URL"]) {
    assert.match(row(upstream)!.meaning, /mirror or a loopback server/, upstream);
  }
});
