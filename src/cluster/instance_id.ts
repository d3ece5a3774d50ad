/**
 * The instance id: how logs, `/health` and the scanner's pass records name
 * one policyd process among several.
 *
 * @module
 */
import { hostname } from "node:os";

/**
 * `INSTANCE_ID` when set, else `<hostname>:<pid>`.
 *
 * @example
 * ```ts
 * import { instanceId } from "./instance_id.ts";
 * instanceId({ INSTANCE_ID: "policyd-1" }); // "policyd-1"
 * ```
 */
export function instanceId(env: Record<string, string | undefined>): string {
  const configured = env.INSTANCE_ID?.trim();
  return configured ? configured : `${hostname()}:${Deno.pid}`;
}
