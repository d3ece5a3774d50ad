/**
 * `upstream_down` / `upstream_up` from the upstream health tracker
 * (`src/lookups/upstream_health.ts`): an upstream failing without a success
 * for longer than `ALERTS_UPSTREAM_DOWN_AFTER_S` is down (one event), and its
 * next success is `upstream_up` (one event). Each instance watches its own
 * calls, so events name the instance.
 *
 * @module
 */
import type { UpstreamName, UpstreamState } from "../lookups/upstream_health.ts";
import { type AlertEvent, upstreamEvent } from "./events.ts";

/** Options of {@link createUpstreamWatch}. */
export interface UpstreamWatchOptions {
  snapshot: () => Record<UpstreamName, UpstreamState>;
  instance: string;
  downAfterSeconds: number;
  now?: () => Date;
}

/** Compares snapshots; `check()` returns the events of this look. */
export interface UpstreamWatch {
  check(): AlertEvent[];
}

/** Creates the watch. */
export function createUpstreamWatch(options: UpstreamWatchOptions): UpstreamWatch {
  const now = options.now ?? (() => new Date());
  const failingSince = new Map<string, string>();
  const down = new Set<string>();
  return {
    check() {
      const at = now();
      const events: AlertEvent[] = [];
      for (const [name, state] of Object.entries(options.snapshot())) {
        if (state.status === "failing") {
          // Failing since the first error after the last success.
          const since = failingSince.get(name) ?? state.last_error_at ?? at.toISOString();
          failingSince.set(name, since);
          const longEnough = at.getTime() - Date.parse(since) >=
            options.downAfterSeconds * 1000;
          if (longEnough && !down.has(name)) {
            down.add(name);
            events.push(upstreamEvent({
              kind: "upstream_down",
              upstream: name,
              instance: options.instance,
              failing_since: since,
              last_error: state.last_error,
              occurred_at: at.toISOString(),
            }));
          }
          continue;
        }
        const since = failingSince.get(name);
        failingSince.delete(name);
        if (since !== undefined && down.delete(name)) {
          events.push(upstreamEvent({
            kind: "upstream_up",
            upstream: name,
            instance: options.instance,
            failing_since: since,
            last_error: null,
            occurred_at: at.toISOString(),
          }));
        }
      }
      return events;
    },
  };
}
