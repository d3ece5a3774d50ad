/**
 * The shape of a project's API conventions (`--conventions MODULE`), as
 * `conventions.ts` validates and renders them.
 *
 * @module
 */

/** A named item with its meaning (an authentication mode, an error status, …). */
export interface ConventionItem {
  name: string;
  meaning: string;
}

/** A header the API reads or sends. */
export interface ConventionHeader {
  name: string;
  /** `request`: the caller sends it; `response`: the API sends it. */
  direction: "request" | "response";
  meaning: string;
}

/** A closed set of values that appears on the wire. */
export interface ConventionEnumeration {
  /** Where it appears, e.g. the field name `verdict`. */
  name: string;
  /** The values; give them as `{ name, meaning }` to document each on its own line. */
  values: readonly (string | ConventionItem)[];
  meaning?: string;
}

/**
 * A structured value a caller writes or reads (a configuration entry, a query
 * language): what it is, its schema and an example, each rendered as code.
 */
export interface ConventionFormat {
  name: string;
  meaning: string;
  /** The schema (JSON Schema, a grammar, …) as text. */
  schema?: string;
  /** Language of the schema's code fence (default `json`). */
  schemaLanguage?: string;
  /** An example as text. */
  example?: string;
  /** Language of the example's code fence (default `json`). */
  exampleLanguage?: string;
}

/** One setting (environment variable) of the server the workflows run against. */
export interface ConventionSetting {
  /** The variable, e.g. `PORT`. */
  name: string;
  /** Its type in words (`integer ≥ 0`, `URL`, `one of a, b`). */
  type: string;
  /** Its default as written in the environment; absent: unset by default. */
  default?: string;
  /** What it is for. */
  meaning: string;
}

/**
 * The server's settings, rendered as the document's `## Settings` section: a
 * table of every variable with the workflows whose **Requires:** line names it.
 */
export interface ConventionSettings {
  /** A paragraph opening the section (how settings are given). */
  summary?: string;
  variables: readonly ConventionSetting[];
  /** Further paragraphs (defaults chosen by detection, upstream mirrors, …). */
  notes?: readonly string[];
}

/** The description a project passes once; every part is optional. */
export interface ApiConventions {
  /** Where every API path starts, e.g. `/api/v1`. */
  basePath?: string;
  authentication?: { summary: string; modes?: readonly ConventionItem[] };
  errors?: {
    summary: string;
    /** The media type of error responses, e.g. `application/problem+json`. */
    mediaType?: string;
    /** Statuses a caller meets, with when. */
    statuses?: readonly ConventionItem[];
  };
  headers?: readonly ConventionHeader[];
  enumerations?: readonly ConventionEnumeration[];
  /** Structured values with their schema and an example. */
  formats?: readonly ConventionFormat[];
  /** Further one-paragraph rules (pagination, idempotency, …). */
  notes?: readonly string[];
  /** The server's settings (its own `## Settings` section). */
  settings?: ConventionSettings;
}
