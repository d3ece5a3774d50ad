import { deepStrictEqual } from "node:assert/strict";
import { suggestProjects } from "./project_hint.tsx";

Deno.test("suggestProjects() offers close known projects, closest first", () => {
  const known = ["web", "api", "shop-api", "payments"];
  deepStrictEqual(suggestProjects("wbe", known), ["web"]);
  deepStrictEqual(suggestProjects("WEB", known), ["web"]);
  deepStrictEqual(suggestProjects("shop", known), ["shop-api"]);
  deepStrictEqual(suggestProjects("paymnets", known), ["payments"]);
  deepStrictEqual(suggestProjects("zzzzzz", known), []);
});
