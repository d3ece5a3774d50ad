/**
 * Derives the "Data Flow" list of a workflow by matching values: a value a step
 * returned that reappears in a later step's request.
 *
 * @module
 */
import type { RawApiCall, RawBoundary } from "./recorder.ts";
import type { DataFlowLink, FlowLocation } from "./types.ts";

interface Leaf {
  key: string;
  value: string;
}

interface Sink extends Leaf {
  location: FlowLocation;
  /**
   * A value too common to match on its own (`1`, `ok`): it flows only from a
   * response key of the same name (`id` → `:id`).
   */
  weak?: boolean;
}

/**
 * Finds, for every request value of step j (body leaf, query parameter, path
 * segment or header), the earliest earlier step whose JSON response returned
 * the same value under some key. Distinctive values (strings of at least 3
 * characters, numbers other than -1, 0 and 1) match under any key; in a query
 * parameter or a path parameter any other string or number (`1`, `ok`)
 * matches only a response key with the same last name (`id` → path parameter
 * `:id`, `id` → query `id`); booleans and null never. A value the client had already sent at or before
 * the returning step is not a flow (the server merely echoed it). Steps are numbered from 1 in the
 * order given; boundary steps keep their numbers but carry no payloads. Runs on
 * unredacted values in memory; only key names reach the document.
 *
 * @example
 * ```ts
 * import { deriveDataFlow } from "./data_flow.ts";
 * const call = (over: object) => ({ kind: "api" as const, method: "GET", path: "/", headers: {}, status: 200, ...over });
 * deriveDataFlow([
 *   call({ response: { type: "json", value: { audit_id: "a-123" } } }),
 *   call({ request: { type: "json", value: { audit_id: "a-123" } } }),
 * ]);
 * // [{ from: { step: 1, key: "audit_id" }, to: { step: 2, location: "request body", key: "audit_id" } }]
 * ```
 */
export function deriveDataFlow(steps: readonly (RawApiCall | RawBoundary)[]): DataFlowLink[] {
  const links: DataFlowLink[] = [];
  const known = new Set<string>();
  const knownUpTo: Set<string>[] = [];
  const sinksOf = steps.map((step) => (step.kind === "api" ? requestSinks(step) : []));
  for (let i = 0; i < steps.length; i++) {
    for (const sink of sinksOf[i]) known.add(knownKey(sink, sink.value));
    knownUpTo.push(new Set(known));
  }
  for (let j = 0; j < steps.length; j++) {
    const seen = new Set<string>();
    for (const sink of sinksOf[j]) {
      const id = `${sink.location}\0${sink.key}`;
      if (seen.has(id)) continue;
      const source = earliestSource(steps, knownUpTo, j, sink);
      if (!source) continue;
      seen.add(id);
      links.push({
        from: source,
        to: { step: j + 1, location: sink.location, key: sink.key },
      });
    }
  }
  return links;
}

function earliestSource(
  steps: readonly (RawApiCall | RawBoundary)[],
  knownUpTo: Set<string>[],
  j: number,
  sink: Sink,
): { step: number; key: string } | undefined {
  for (let i = 0; i < j; i++) {
    const step = steps[i];
    if (step.kind !== "api" || step.response?.type !== "json") continue;
    const leaf = leaves(step.response.value, "", sink.weak === true).find((l) => matches(sink, l));
    if (leaf && !knownUpTo[i].has(knownKey(sink, leaf.value))) {
      return { step: i + 1, key: leaf.key };
    }
  }
  return undefined;
}

function matches(sink: Sink, leaf: Leaf): boolean {
  const value = leaf.value;
  if (sink.weak) return sink.value === value && lastName(sink.key) === lastName(leaf.key);
  if (sink.value === value) return true;
  // `Authorization: Bearer <token>` carries the token after a scheme word.
  return sink.location === "request header" && sink.value.endsWith(` ${value}`);
}

function requestSinks(step: RawApiCall): Sink[] {
  const sinks: Sink[] = [];
  if (step.request?.type === "json") {
    for (const leaf of leaves(step.request.value, "")) {
      sinks.push({ ...leaf, location: "request body" });
    }
  }
  for (const [name, value] of Object.entries(step.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === "") continue;
      sinks.push({ key: name, value: item, location: "query", weak: !distinctive(item) });
    }
  }
  if (step.params) {
    for (const [name, value] of Object.entries(step.params)) {
      const decoded = decode(value);
      if (decoded === "") continue;
      sinks.push({
        key: `:${name}`,
        value: decoded,
        location: "path",
        weak: !distinctive(decoded),
      });
    }
  } else {
    step.path.split("/").forEach((segment, index) => {
      const value = decode(segment);
      if (distinctive(value)) sinks.push({ key: `segment ${index}`, value, location: "path" });
    });
  }
  for (const [name, value] of Object.entries(step.headers)) {
    sinks.push({ key: name, value, location: "request header" });
  }
  return sinks;
}

/** Scalar leaves of a JSON value; only distinctive ones unless `all`. */
function leaves(value: unknown, path: string, all = false): Leaf[] {
  if (Array.isArray(value)) {
    return value.flatMap((item, i) => leaves(item, `${path}[${i}]`, all));
  }
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) =>
      leaves(v, path === "" ? k : `${path}.${k}`, all)
    );
  }
  const text = typeof value === "string"
    ? value
    : typeof value === "number" && Number.isFinite(value)
    ? String(value)
    : undefined;
  if (text === undefined || text === "" || (!all && !distinctive(text))) return [];
  return [{ key: path || "(body)", value: text }];
}

// What "the client already sent this" is keyed by: the value, or for a weak
// value its name and value (sending `limit=1` is no echo of an `id` of 1).
function knownKey(sink: Sink, value: string): string {
  return sink.weak ? `${lastName(sink.key)}\0${value}` : value;
}

/** The last name of a key: `items[0].id` → `id`, `:id` → `id`. */
function lastName(key: string): string {
  return key.replace(/^:/, "").replace(/\[\d+\]/g, "").split(".").at(-1) ?? key;
}

function distinctive(value: string): boolean {
  if (value.length >= 3) return true;
  const n = Number(value);
  return value.trim() !== "" && Number.isFinite(n) && Math.abs(n) > 1;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
