/**
 * Settings area `http`: the listener, request limits (body read time,
 * parse-yaml budget), cross-origin allowance and rate limiting.
 *
 * @module
 */
import { z } from "zod";
import { defineArea } from "../config/area.ts";
import { listVar, nonNegativeIntVar, portVar, positiveIntVar } from "../config/kinds.ts";

/** Typed options of the HTTP layer. */
export interface HttpOptions {
  host: string;
  port: number;
  /** Origins besides the server's own allowed to send state-changing requests. */
  allowedOrigins: string[];
  /** Requests per caller per minute; 0 = unlimited. */
  rateLimitPerMinute: number;
  /** Time a client has to send its whole request body. */
  bodyReadTimeoutMs: number;
  /** Time a new connection has to finish its first request's headers; 0 = none. */
  headerTimeoutMs: number;
  /** Time a keep-alive connection may wait for its next request; 0 = none. */
  idleTimeoutMs: number;
  /** Budget of `POST /registry/parse-yaml`. */
  parseYaml: { maxConcurrent: number; timeoutMs: number };
}

/** Defaults for apps built without settings (tests, the workflow documents). */
export const DEFAULT_HTTP_OPTIONS: HttpOptions = {
  host: "127.0.0.1",
  port: 8765,
  allowedOrigins: [],
  rateLimitPerMinute: 0,
  bodyReadTimeoutMs: 30_000,
  headerTimeoutMs: 10_000,
  idleTimeoutMs: 60_000,
  parseYaml: { maxConcurrent: 2, timeoutMs: 5_000 },
};

/** The `http` area. */
export const httpArea = defineArea({
  name: "http",
  variables: {
    POLICY_HOST: z.string().min(1).default(DEFAULT_HTTP_OPTIONS.host),
    POLICY_PORT: portVar.default(DEFAULT_HTTP_OPTIONS.port),
    ALLOWED_ORIGINS: listVar.default([]),
    RATE_LIMIT_PER_MINUTE: nonNegativeIntVar.default(0),
    REQUEST_READ_TIMEOUT_MS: positiveIntVar.default(DEFAULT_HTTP_OPTIONS.bodyReadTimeoutMs),
    HEADER_READ_TIMEOUT_MS: nonNegativeIntVar.default(DEFAULT_HTTP_OPTIONS.headerTimeoutMs),
    IDLE_TIMEOUT_MS: nonNegativeIntVar.default(DEFAULT_HTTP_OPTIONS.idleTimeoutMs),
    PARSE_YAML_TIMEOUT_MS: positiveIntVar.default(DEFAULT_HTTP_OPTIONS.parseYaml.timeoutMs),
    PARSE_YAML_CONCURRENCY: positiveIntVar.default(DEFAULT_HTTP_OPTIONS.parseYaml.maxConcurrent),
  },
  options(v, report): HttpOptions {
    const allowedOrigins: string[] = [];
    for (const origin of v.ALLOWED_ORIGINS) {
      let parsed: URL | null = null;
      try {
        parsed = new URL(origin);
      } catch { /* reported below */ }
      if (
        !parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin.replace(/\/$/, "")
      ) {
        report(
          "ALLOWED_ORIGINS",
          `"${origin}" is not an origin such as https://policy.example.com`,
        );
      } else allowedOrigins.push(parsed.origin);
    }
    return {
      host: v.POLICY_HOST,
      port: v.POLICY_PORT,
      allowedOrigins,
      rateLimitPerMinute: v.RATE_LIMIT_PER_MINUTE,
      bodyReadTimeoutMs: v.REQUEST_READ_TIMEOUT_MS,
      headerTimeoutMs: v.HEADER_READ_TIMEOUT_MS,
      idleTimeoutMs: v.IDLE_TIMEOUT_MS,
      parseYaml: { maxConcurrent: v.PARSE_YAML_CONCURRENCY, timeoutMs: v.PARSE_YAML_TIMEOUT_MS },
    };
  },
});
