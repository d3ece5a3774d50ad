/**
 * Settings area `guard` (issue 34, SPEC §17.7): which `Host` names the server
 * answers to (DNS-rebinding defence), how many connections it holds at once,
 * how many failed authentications a client may make per minute, and how
 * many upstream lookups (OSV, PyPI) run at once in the whole process.
 *
 * @module
 */
import { defineArea } from "../config/area.ts";
import { listVar, nonNegativeIntVar, positiveIntVar } from "../config/kinds.ts";

/** Typed options of the guard area. */
export interface GuardOptions {
  /** Host names (lower case, no port) accepted besides loopback and the bind address. */
  allowedHosts: string[];
  /** Connections held at once by the socket server; 503 beyond; 0 = no cap. */
  maxConnections: number;
  /** Failed authentications per client address per minute before 429; 0 = no limit. */
  authFailuresPerMinute: number;
  /** Upstream lookups in flight at once, process-wide. */
  upstreamConcurrency: number;
}

/** Defaults for apps built without settings (tests, the workflow documents). */
export const DEFAULT_GUARD_OPTIONS: GuardOptions = {
  allowedHosts: [],
  maxConnections: 1024,
  authFailuresPerMinute: 30,
  upstreamConcurrency: 64,
};

/** A host name as `ALLOWED_HOSTS` accepts it: a DNS name or IP literal, no port, no scheme. */
const HOST_NAME =
  /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?)$/;

/** The `guard` area. */
export const guardArea = defineArea({
  name: "guard",
  variables: {
    ALLOWED_HOSTS: listVar.default([]),
    MAX_CONNECTIONS: nonNegativeIntVar.default(DEFAULT_GUARD_OPTIONS.maxConnections),
    AUTH_FAILURES_PER_MINUTE: nonNegativeIntVar.default(
      DEFAULT_GUARD_OPTIONS.authFailuresPerMinute,
    ),
    UPSTREAM_CONCURRENCY: positiveIntVar.default(DEFAULT_GUARD_OPTIONS.upstreamConcurrency),
  },
  options(v, report): GuardOptions {
    const allowedHosts: string[] = [];
    for (const entry of v.ALLOWED_HOSTS) {
      const host = entry.trim().toLowerCase().replace(/\.$/, "");
      if (!HOST_NAME.test(host)) {
        report("ALLOWED_HOSTS", `"${entry}" is not a host name such as policy.example.com`);
      } else allowedHosts.push(host);
    }
    return {
      allowedHosts,
      maxConnections: v.MAX_CONNECTIONS,
      authFailuresPerMinute: v.AUTH_FAILURES_PER_MINUTE,
      upstreamConcurrency: v.UPSTREAM_CONCURRENCY,
    };
  },
});
