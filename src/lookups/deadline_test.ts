import { deepStrictEqual } from "node:assert/strict";
import { withDeadline } from "./deadline.ts";
import type { LicenseSource, VulnerabilitySource } from "./types.ts";

const never = <T>() => new Promise<T>(() => {});
const hanging = {
  vulnerabilities: { query: () => never() } as VulnerabilitySource,
  licenses: { lookup: () => never() } as LicenseSource,
};
const unavailable = {
  status: "unavailable",
  detail: "the batch's lookup deadline passed before this lookup answered",
};

Deno.test("a lookup still running when the deadline passes answers unavailable", async () => {
  const controller = new AbortController();
  const sources = withDeadline(hanging, controller.signal);
  const pending = [
    sources.vulnerabilities.query("requests", null),
    sources.licenses.lookup("requests", null),
  ];
  controller.abort();
  deepStrictEqual(await Promise.all(pending), [unavailable, unavailable]);
  // After the deadline, a new lookup does not start waiting.
  deepStrictEqual(await sources.licenses.lookup("flask", null), unavailable);
});

Deno.test("a lookup that answers before the deadline keeps its answer", async () => {
  const answer = { status: "ok" as const, vulnerabilities: [] };
  const sources = withDeadline(
    { ...hanging, vulnerabilities: { query: () => Promise.resolve(answer) } },
    new AbortController().signal,
  );
  deepStrictEqual(await sources.vulnerabilities.query("requests", null), answer);
});
