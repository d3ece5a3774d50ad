/**
 * Benign controls of the typosquat rule (issue 26 point 8): every package
 * name in the repository's real lock files (tests/fixtures/lockfiles), run
 * through the rules with the shipped popular-project list.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { loadLockFile } from "../../cli/policy/lockfiles/mod.ts";
import { factsVerdict } from "../../src/core/facts_verdict.ts";
import { createPopularNames } from "../../src/lookups/popular.ts";
import { silentLogger } from "../../src/log/logger.ts";
import type { EvaluationFacts } from "../../src/core/types.ts";
import { snapshotOf } from "../helpers/registry.ts";

const ROOT = new URL("../fixtures/lockfiles/", import.meta.url).pathname;
const LOCK_FILES = [
  "uv/pydantic__pydantic__uv.lock",
  "uv/astral-sh__uv-fastapi-example__uv.lock",
  "poetry/python-poetry__poetry__poetry.lock",
  "pylock/Comfy-Org__comfy-cli__pylock.toml",
  "requirements/pypi__warehouse__main.txt",
  "requirements/celery__celery__requirements/test.txt",
  "pipfile/pypa__pipenv__Pipfile.lock",
];

function lockNames(): string[] {
  const names = new Set<string>();
  const ctx = {
    read: (p: string) => Deno.readTextFileSync(p),
    label: (p: string) => p,
    root: ROOT,
  };
  for (const file of LOCK_FILES) {
    for (const entry of loadLockFile(join(ROOT, file), ctx).entries) names.add(entry.name);
  }
  return [...names].sort();
}

/** PyPI facts of a project with years of releases, as every published lock-file dependency has. */
const ESTABLISHED: EvaluationFacts = {
  vulnerabilities: { status: "ok", vulnerabilities: [] },
  license: {
    status: "ok",
    license: "MIT",
    license_raw: "MIT",
    latest_version: "1.0",
    released_at: "2024-01-01T00:00:00Z",
    first_released_at: "2019-01-01T00:00:00Z",
    release_count: 10,
  },
};

Deno.test("no package of a real lock file is denied as a typosquat; at most 1 % is warned", async () => {
  const names = lockNames();
  ok(names.length > 300, `${names.length} names read`);
  const popular = createPopularNames({ url: null }, silentLogger).current();
  const snapshot = await snapshotOf("packages: []\n");
  const now = new Date("2026-11-23T12:00:00Z");
  const warned: string[] = [];
  for (const name of names) {
    const d = factsVerdict({ name, version: null }, snapshot, ESTABLISHED, now, popular);
    ok(d.denial_category !== "DENIAL_TYPOSQUAT", `${name}: ${d.reason}`);
    if (d.threats.some((t) => t.kind === "typosquat")) warned.push(name);
  }
  ok(warned.length <= names.length / 100, `warned: ${warned.join(", ")}`);
  // The one real project one edit from a popular one: pytest-pypy (pytest-mypy).
  deepStrictEqual(warned, ["pytest-pypy"]);
  // Even with no history at all, the look-alike check flags no more than 1 %.
  const flagged = names.filter((n) => popular.lookalike(n) !== null);
  ok(flagged.length <= names.length / 100, flagged.join(", "));
});
