/**
 * `stepBoundary()`: marks non-API code of a workflow as its own step.
 *
 * @module
 */
import { currentRecorder } from "./recorder.ts";

/**
 * Runs `fn` and, inside a workflow, records it as a boundary step: domain
 * `[External/Mocked]`, action `Client Logic Query`, description starting with
 * `name` (followed by the `domain` label). The step takes its number when it
 * starts, so API calls made inside `fn` come after it. Returns what `fn`
 * returns; an error thrown by `fn` propagates and fails the workflow.
 *
 * @example
 * ```ts
 * import { stepBoundary } from "./step_boundary.ts";
 * const add = await stepBoundary("Client-side logic", "Decide whether to add it", () => true);
 * add; // true
 * ```
 */
export async function stepBoundary<T>(
  domain: string,
  name: string,
  fn: () => T | Promise<T>,
): Promise<T> {
  const fill = currentRecorder()?.reserve();
  const result = await fn();
  fill?.({ kind: "boundary", domain, name });
  return result;
}
