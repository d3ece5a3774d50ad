/**
 * The call context of an anonymous API call for project `demo`, as the
 * evaluation service's tests pass it.
 *
 * @module
 */
import type { CallContext } from "../../src/evaluation/service.ts";

/** An anonymous API call for project `demo`. */
export const API_CONTEXT: CallContext = {
  project: "demo",
  requester: "anonymous",
  agent_model: null,
  agent_version: null,
  source: "api",
};
