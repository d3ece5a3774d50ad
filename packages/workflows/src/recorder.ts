/**
 * The per-workflow recorder and the async context that finds it.
 *
 * `AsyncLocalStorage` scopes recording to the async call tree of one
 * `workflow()` body, so concurrent workflows in one file never mix and calls
 * made outside any workflow are not recorded. The storage object itself is the
 * one piece of module state: it is created once and never reassigned.
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { QueryParams, RecordedBody } from "./types.ts";

/** An API call as observed, before redaction (never written anywhere). */
export interface RawApiCall {
  kind: "api";
  method: string;
  path: string;
  route?: string;
  /** Named route parameters (`{ id: "42" }`) when the route template is known. */
  params?: Record<string, string>;
  query?: QueryParams;
  request?: RecordedBody;
  /**
   * The request headers the test set (on the client or the call; not the
   * automatic `content-type` of a JSON body). Published redacted.
   */
  headers: Record<string, string>;
  status: number;
  /** The response headers a caller must act on (`www-authenticate`, `location`, …) when present. */
  responseHeaders?: Record<string, string>;
  response?: RecordedBody;
}

/** A boundary step as observed. */
export interface RawBoundary {
  kind: "boundary";
  domain: string;
  name: string;
}

/** A step slot: reserved when the step starts so concurrent steps keep start order. */
export type RawStep = RawApiCall | RawBoundary | { kind: "pending" };

/**
 * Collects the steps of one workflow run in start order.
 *
 * @example
 * ```ts
 * import { WorkflowRecorder } from "./recorder.ts";
 * const recorder = new WorkflowRecorder();
 * const fill = recorder.reserve();
 * fill({ kind: "boundary", domain: "Client", name: "Decide" });
 * recorder.steps().length; // 1
 * ```
 */
export class WorkflowRecorder {
  #steps: RawStep[] = [];

  /** Reserves the next step number and returns the function that fills it in. */
  reserve(): (step: RawApiCall | RawBoundary) => void {
    const index = this.#steps.push({ kind: "pending" }) - 1;
    return (step) => {
      this.#steps[index] = step;
    };
  }

  /** The completed steps in start order (slots of calls that threw are left out). */
  steps(): (RawApiCall | RawBoundary)[] {
    return this.#steps.filter((s): s is RawApiCall | RawBoundary => s.kind !== "pending");
  }

  /** Runs `fn` with this recorder as the current one for its whole async call tree. */
  run<T>(fn: () => T): T {
    return storage.run(this, fn);
  }
}

const storage = new AsyncLocalStorage<WorkflowRecorder>();

/**
 * The recorder of the workflow whose async call tree is running, if any.
 *
 * @example
 * ```ts
 * import { currentRecorder } from "./recorder.ts";
 * currentRecorder(); // undefined outside a workflow
 * ```
 */
export function currentRecorder(): WorkflowRecorder | undefined {
  return storage.getStore();
}
