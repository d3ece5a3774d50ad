/**
 * Field tables: for each step, the request and response fields observed
 * across every recorded call of the same endpoint in the document — their
 * type, an example, and whether every call had them — so a reader knows what
 * is optional without a separate schema.
 *
 * @module
 */
import { cell } from "./markdown.ts";
import type { ApiStep, Workflow } from "./types.ts";

/** Where a field was observed. */
export type FieldLocation = "header" | "query" | "body" | "response";

interface Observed {
  location: FieldLocation;
  field: string;
  types: Set<string>;
  example?: string;
  /** Calls in which the field appeared. */
  seen: number;
}

interface Endpoint {
  calls: number;
  fields: Map<string, Observed>;
}

/** Rows shown per table; the rest are counted. */
export const MAX_FIELD_ROWS = 40;

/** The observations of a whole document, looked up per step. */
export class FieldIndex {
  readonly #requests = new Map<string, Endpoint>();
  readonly #responses = new Map<string, Endpoint>();
  readonly #shown = new Map<string, string>();

  /**
   * Indexes every API step of `workflows`.
   *
   * @example
   * ```ts
   * import { FieldIndex } from "./field_table.ts";
   * const index = new FieldIndex([]);
   * ```
   */
  constructor(workflows: readonly Workflow[]) {
    for (const wf of workflows) {
      for (const step of wf.steps) {
        if (step.kind !== "api") continue;
        observe(this.#requests, requestKey(step), requestFields(step));
        observe(this.#responses, responseKey(step), responseFields(step));
      }
    }
  }

  /**
   * The Markdown table of a step's endpoint (request fields across its calls,
   * response fields across its responses of the same status), or `undefined`
   * when the endpoint has no fields. The table is written once, at the first
   * step of that endpoint and status; later calls return a one-line pointer
   * to it (`here` names the step the table is written at: a Markdown link).
   *
   * @example
   * ```ts
   * import { FieldIndex } from "./field_table.ts";
   * const step = {
   *   kind: "api" as const, method: "GET", path: "/items", status: 200,
   *   query: { limit: "2" },
   * };
   * new FieldIndex([{
   *   id: "list", name: "List", intent: "List items.", status: "Verified / Test-Gated" as const,
   *   source: { file: "./t.ts", test: "t", index: 0 }, steps: [step], dataFlow: [],
   * }]).table(step); // "| Field | In | Type | Example | Present |\n…"
   * ```
   */
  table(step: ApiStep, here?: string): string | undefined {
    const key = responseKey(step);
    const first = this.#shown.get(key);
    if (first !== undefined) {
      return `Fields of \`${step.method} ${step.route ?? step.path}\` → ${step.status}: ` +
        `see the table at ${first}.`;
    }
    if (here !== undefined) this.#shown.set(key, here);
    const request = this.#requests.get(requestKey(step));
    const response = this.#responses.get(responseKey(step));
    const rows = [
      ...rowsOf(request),
      ...rowsOf(response),
    ];
    if (rows.length === 0) return undefined;
    const shown = rows.slice(0, MAX_FIELD_ROWS);
    const more = rows.length - shown.length;
    const endpoint = `${step.method} ${step.route ?? step.path}`;
    const intro = `Fields observed across the document's ${plural(request?.calls ?? 0, "call")} ` +
      `of \`${endpoint}\` and its ${plural(response?.calls ?? 0, "response")} with status ` +
      `${step.status}:`;
    return [
      intro,
      "",
      "| Field | In | Type | Example | Present |",
      "|---|---|---|---|---|",
      ...shown,
      ...(more > 0 ? [`| … ${more} more fields | | | | |`] : []),
    ].join("\n");
  }
}

function requestKey(step: ApiStep): string {
  return `${step.method} ${step.route ?? step.path}`;
}

function responseKey(step: ApiStep): string {
  return `${requestKey(step)} ${step.status}`;
}

type Field = [location: FieldLocation, field: string, type: string, example?: unknown];

function requestFields(step: ApiStep): Field[] {
  const out: Field[] = [];
  for (const [name, value] of Object.entries(step.headers ?? {})) {
    out.push(["header", name, "string", value]);
  }
  for (const [name, value] of Object.entries(step.query ?? {})) {
    out.push(["query", name, Array.isArray(value) ? "string (repeated)" : "string", value]);
  }
  if (step.request?.type === "json") flatten(step.request.value, "", "body", out);
  return out;
}

function responseFields(step: ApiStep): Field[] {
  const out: Field[] = [];
  if (step.response?.type === "json") flatten(step.response.value, "", "response", out);
  return out;
}

function flatten(value: unknown, path: string, location: FieldLocation, out: Field[]): void {
  if (Array.isArray(value)) {
    if (path !== "") out.push([location, path, "array"]);
    for (const item of value) flatten(item, `${path}[]`, location, out);
    return;
  }
  if (value !== null && typeof value === "object") {
    if (path !== "") out.push([location, path, "object"]);
    for (const [key, inner] of Object.entries(value)) {
      flatten(inner, path === "" ? key : `${path}.${key}`, location, out);
    }
    return;
  }
  if (path === "") return;
  out.push([location, path, typeOf(value), value]);
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function observe(index: Map<string, Endpoint>, key: string, fields: Field[]): void {
  const endpoint = index.get(key) ?? { calls: 0, fields: new Map() };
  index.set(key, endpoint);
  endpoint.calls++;
  const counted = new Set<string>();
  for (const [location, field, type, example] of fields) {
    const id = `${location} ${field}`;
    const entry = endpoint.fields.get(id) ??
      { location, field, types: new Set<string>(), seen: 0 };
    endpoint.fields.set(id, entry);
    entry.types.add(type);
    // The first example, unless it was null and a value turns up later.
    if (example !== undefined && (entry.example === undefined || entry.example === "null")) {
      entry.example = exampleOf(example);
    }
    if (!counted.has(id)) {
      counted.add(id);
      entry.seen++;
    }
  }
}

function exampleOf(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length <= 40 ? text : `${text.slice(0, 37)}…`;
}

function rowsOf(endpoint: Endpoint | undefined): string[] {
  if (endpoint === undefined) return [];
  const rank: FieldLocation[] = ["header", "query", "body", "response"];
  const fields = [...endpoint.fields.values()].sort((a, b) =>
    rank.indexOf(a.location) - rank.indexOf(b.location)
  );
  return fields.map((f) => {
    const present = f.seen === endpoint.calls
      ? "always"
      : `optional (${f.seen} of ${endpoint.calls})`;
    const example = f.example === undefined ? "" : `\`${f.example.replace(/`/g, "'")}\``;
    return `| \`${cell(f.field)}\` | ${f.location} | ${[...f.types].join(" \\| ")} | ${
      cell(example)
    } | ${present} |`;
  });
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
