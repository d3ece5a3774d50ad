import assert from "node:assert/strict";
import { loadConventions, renderConventions } from "@policyd/workflows/runner";
import { API_ROUTES, fullPath } from "./mod.ts";
import * as enums from "./enums.ts";
import { CONTEXT_HEADERS } from "./headers.ts";

Deno.test("policyd's conventions load through the workflow library and name every enumeration value", async () => {
  const conventions = await loadConventions("src/api/conventions.ts", Deno.cwd());
  const text = renderConventions(conventions);
  // Every enumeration the contract exports, so a new one cannot be forgotten.
  const values = Object.values(enums).filter(Array.isArray).flat() as string[];
  assert.ok(values.includes("DENIAL_LICENSE") && values.includes("logged"), "the enums were read");
  for (const value of values) {
    assert.ok(text.includes(`\`${value}\``), `${value} is listed`);
  }
  for (const header of [...Object.keys(CONTEXT_HEADERS), "WWW-Authenticate"]) {
    assert.ok(text.includes(`\`${header}\``), `${header} is listed`);
  }
  assert.equal(conventions.basePath, "/api/v1");
  assert.equal(conventions.errors?.mediaType, "application/problem+json");
});

Deno.test("the error statuses and the public and operator routes come from the route contracts", async () => {
  const conventions = await loadConventions("src/api/conventions.ts", Deno.cwd());
  const statuses = conventions.errors?.statuses ?? [];
  const text = renderConventions(conventions);
  for (const route of API_ROUTES) {
    const call = `${route.method.toUpperCase()} ${fullPath(route)}`;
    for (const [status, response] of Object.entries(route.responses)) {
      if (Number(status) < 400) continue;
      const line = statuses.find((s) => s.name === status)?.meaning ?? "";
      assert.ok(line.includes(`\`${call}\`: ${response.description}`), `${status} of ${call}`);
    }
    if (route.public || route.operator) assert.ok(text.includes(`\`${call}\``), call);
  }
  for (const status of ["400", "401", "403", "404", "413", "422"]) {
    assert.ok(statuses.some((s) => s.name === status), `status ${status}`);
  }
});
