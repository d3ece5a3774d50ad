import assert from "node:assert/strict";
import type { ApprovalRequest } from "../store/types.ts";
import { collapseRequests } from "./collapse.ts";

let nextId = 1;
function row(
  pkg: string,
  project: string,
  requester: string,
  at: string,
  extra: Partial<ApprovalRequest> = {},
): ApprovalRequest {
  return {
    id: nextId++,
    package: pkg,
    version: null,
    project,
    requester,
    rationale: `why ${pkg} for ${project}`,
    agent_model: null,
    agent_version: null,
    status: "PENDING_REVIEW",
    created_at: at,
    decided_at: null,
    proposal_status: null,
    proposal_detail: null,
    decided_by: null,
    decision_reason: null,
    ...extra,
  };
}

Deno.test("collapseRequests() folds rows per package with counts, sorted lists and the latest rationale", () => {
  const items = collapseRequests([
    row("left-pad", "web", "ana", "2026-01-01T00:00:00.000Z"),
    row("left-pad", "api", "bo", "2026-01-03T00:00:00.000Z"),
    row("left-pad", "web", "ana", "2026-01-02T00:00:00.000Z"),
    row("attrs", "web", "ana", "2026-01-02T12:00:00.000Z"),
  ]);
  assert.deepEqual(items.map((i) => [i.package, i.count]), [["left-pad", 3], ["attrs", 1]]);
  assert.deepEqual(items[0].projects, ["api", "web"]);
  assert.deepEqual(items[0].requesters, ["ana", "bo"]);
  assert.equal(items[0].rationale, "why left-pad for api");
  assert.equal(items[0].last_requested_at, "2026-01-03T00:00:00.000Z");
});

Deno.test("collapseRequests() keeps statuses apart so a collapsed row's status is truthful", () => {
  const items = collapseRequests([
    row("attrs", "web", "ana", "2026-01-01T00:00:00.000Z", { status: "APPROVED" }),
    row("attrs", "web", "ana", "2026-01-05T00:00:00.000Z"),
  ]);
  assert.deepEqual(items.map((i) => [i.package, i.status, i.count]), [
    ["attrs", "PENDING_REVIEW", 1],
    ["attrs", "APPROVED", 1],
  ]);
});
