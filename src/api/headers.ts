/**
 * Request headers every API route understands, and the project name rule.
 *
 * @module
 */
import { z } from "zod";
import { CALL_SOURCES } from "../core/types.ts";

export type { CallSource } from "../core/types.ts";

/** Characters and length of a project name. */
export const PROJECT_PATTERN = /^[\w.@/:+-]{1,200}$/;

/** A project name (`*` stands for every project where a route reads across projects). */
export const ProjectNameSchema = z
  .string()
  .regex(PROJECT_PATTERN, { message: "letters, digits and ._-@/:+ only, 1–200 characters" });

/** Headers of the call context (SPEC §7); each is optional. */
export const CONTEXT_HEADERS = {
  "X-Policy-Project": "project name (or the `project` query parameter; default `default`)",
  "X-Policy-Source": `where the call comes from: ${CALL_SOURCES.join(", ")} (default api)`,
  "X-Policy-Agent-Model": "the coding agent's model, recorded in the audit log",
  "X-Policy-Agent-Version": "the coding agent's version, recorded in the audit log",
} as const;
