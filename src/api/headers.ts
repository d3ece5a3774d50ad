/**
 * Request headers every API route understands, and the project name rule.
 *
 * @module
 */
import { z } from "zod";
import { CALL_SOURCES } from "../core/types.ts";
import { CONTEXT_HEADER_NAMES, displayHeaderName } from "./header_names.ts";

export { CONTEXT_HEADER_NAMES } from "./header_names.ts";

export type { CallSource } from "../core/types.ts";

/** Characters and length of a project name. */
export const PROJECT_PATTERN = /^[\w.@/:+-]{1,200}$/;

/** A project name (`*` stands for every project where a route reads across projects). */
export const ProjectNameSchema = z
  .string()
  .regex(PROJECT_PATTERN, { message: "letters, digits and ._-@/:+ only, 1–200 characters" });

const CONTEXT_HEADER_MEANINGS: Record<keyof typeof CONTEXT_HEADER_NAMES, string> = {
  project: "project name (or the `project` query parameter; default `default`)",
  source: `where the call comes from: ${CALL_SOURCES.join(", ")} (default api)`,
  agentModel: "the coding agent's model, recorded in the audit log",
  agentVersion: "the coding agent's version, recorded in the audit log",
};

/** Headers of the call context (SPEC §7) as documented, with their meaning; each is optional. */
export const CONTEXT_HEADERS: Record<string, string> = Object.fromEntries(
  (Object.keys(CONTEXT_HEADER_NAMES) as Array<keyof typeof CONTEXT_HEADER_NAMES>).map((key) => [
    displayHeaderName(CONTEXT_HEADER_NAMES[key]),
    CONTEXT_HEADER_MEANINGS[key],
  ]),
);
