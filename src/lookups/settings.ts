/**
 * Settings area `lookups`: the upstream vulnerability database and package
 * index, and the per-request time limit.
 *
 * @module
 */
import { z } from "zod";
import { DEFAULT_LOOKUP_TIMEOUT_MS } from "../api/evaluate.ts";
import { defineArea } from "../config/area.ts";
import { positiveIntVar } from "../config/kinds.ts";

/** Typed options of the lookups. */
export interface LookupOptions {
  osvApiUrl: string;
  pypiUrl: string;
  timeoutMs: number;
}

/** The `lookups` area. */
export const lookupsArea = defineArea({
  name: "lookups",
  variables: {
    OSV_API_URL: z.url().default("https://api.osv.dev"),
    PYPI_URL: z.url().default("https://pypi.org"),
    LOOKUP_TIMEOUT_MS: positiveIntVar.default(DEFAULT_LOOKUP_TIMEOUT_MS),
  },
  options: (v): LookupOptions => ({
    osvApiUrl: v.OSV_API_URL,
    pypiUrl: v.PYPI_URL,
    timeoutMs: v.LOOKUP_TIMEOUT_MS,
  }),
});
