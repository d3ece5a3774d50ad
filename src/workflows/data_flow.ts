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
}

/**
 * Finds, for every request value of step j (body leaf, query parameter, path
 * segment or header), the earliest earlier step whose JSON response returned
 * the same value under some key. Only distinctive values count: strings of at
 * least 3 characters and numbers other than -1, 0 and 1 (booleans and null
 * never). A value the client had already sent at or before the returning step
 * is not a flow (the server merely echoed it). Steps are numbered from 1 in the
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
    for (const sink of sinksOf[i]) known.add(sink.value);
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
    const leaf = leaves(step.response.value, "").find((l) => matches(sink, l.value));
    if (leaf && !knownUpTo[i].has(leaf.value)) return { step: i + 1, key: leaf.key };
  }
  return undefined;
}

function matches(sink: Sink, value: string): boolean {
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
      if (distinctive(item)) sinks.push({ key: name, value: item, location: "query" });
    }
  }
  if (step.params) {
    for (const [name, value] of Object.entries(step.params)) {
      if (distinctive(value)) {
        sinks.push({ key: `:${name}`, value: decode(value), location: "path" });
      }
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

function leaves(value: unknown, path: string): Leaf[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, `${path}[${i}]`));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => leaves(v, path === "" ? k : `${path}.${k}`));
  }
  if (typeof value === "string" && distinctive(value)) return [{ key: path || "(body)", value }];
  if (typeof value === "number" && Number.isFinite(value) && Math.abs(value) > 1) {
    return [{ key: path || "(body)", value: String(value) }];
  }
  return [];
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
