import { equal, ok } from "node:assert/strict";
import { scannerSentence, upstreamSentence, type UpstreamView } from "./status_strip.tsx";

const base = {
  enabled: true,
  running: false,
  last_started_at: "2026-11-21T08:00:00.000Z",
  last_finished_at: "2026-11-21T08:01:00.000Z",
  last_rows: 0,
  last_error: null,
};
const osvOk: UpstreamView = {
  status: "ok",
  last_success_at: "2026-11-21T08:00:30.000Z",
  last_error_at: null,
  last_error: null,
};

Deno.test("scannerSentence() tells never ran, OSV failing and no alerts apart", () => {
  ok(
    scannerSentence({ ...base, last_finished_at: null, last_started_at: null }).includes(
      "never run",
    ),
  );
  ok(scannerSentence({ ...base, enabled: false }).includes("is off"));
  equal(scannerSentence(base, osvOk), "The CVE scanner ran at 2026-11-21 08:01 UTC: no alerts.");
  const failing: UpstreamView = {
    status: "failing",
    last_success_at: null,
    last_error_at: "2026-11-21T08:00:10.000Z",
    last_error: "connection refused",
  };
  ok(scannerSentence(base, failing).includes("with OSV failing"));
  ok(scannerSentence({ ...base, last_rows: 2 }, osvOk).endsWith(": 2 alerts."));
  ok(scannerSentence({ ...base, last_error: "boom" }).includes("failed: boom"));
  ok(scannerSentence(null).includes("not known"));
});

Deno.test("upstreamSentence() never calls an unknown upstream healthy", () => {
  ok(upstreamSentence(osvOk).startsWith("answering"));
  equal(
    upstreamSentence({
      status: "unknown",
      last_success_at: null,
      last_error_at: null,
      last_error: null,
    }),
    "not called since the start",
  );
  ok(
    upstreamSentence({ ...osvOk, status: "failing", last_success_at: null }).includes(
      "no answer since the start",
    ),
  );
});
