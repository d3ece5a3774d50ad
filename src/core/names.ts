/**
 * PEP 503 name normalisation, PEP 508 name validation and the plain
 * requirement form (`name`, `name==1.2.3`, `name>=1.0,<2`), read exactly
 * without the PEP 508 grammar: the Ohm parser of pip-requirements-js costs
 * about half a millisecond per line, so the server's evaluation of a batch and
 * the client's pre-commit quick path read this common form here and leave
 * every other form (extras, markers, URLs, pre-releases, wildcards, `===`, a
 * one-part `~=`) to the full parser. `names_test.ts` checks that whatever is
 * read here is read the same by the full parser.
 *
 * @module
 */

/**
 * A valid distribution name (PEP 508): ASCII letters and digits, with `._-`
 * inside. Written without flags so JSON Schema (OpenAPI `pattern`) reads it
 * as the code does.
 */
export const VALID_NAME_PATTERN = /^([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])$/;

/**
 * Normalises a Python package name per PEP 503.
 *
 * @example
 * ```ts
 * normalizeName("Foo_Bar.baz"); // "foo-bar-baz"
 * ```
 */
export function normalizeName(name: string): string {
  return name.replace(/[-_.]+/g, "-").toLowerCase();
}

/** Whether a string is a valid distribution name (PEP 508). */
export function isValidName(name: string): boolean {
  return VALID_NAME_PATTERN.test(name);
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Whether a package spec is printable ASCII. PEP 508 names are ASCII only, so
 * look-alike letters (Cyrillic `у` in `pycrуpto`, full-width `ｒｅｑｕｅｓｔｓ`)
 * are rejected before any parsing or auditing.
 *
 * @example
 * ```ts
 * isAsciiSpec("requests==2.31.0"); // true
 * isAsciiSpec("pycr\u0443pto"); // false
 * ```
 */
export function isAsciiSpec(spec: string): boolean {
  return PRINTABLE_ASCII.test(spec);
}

/** Message of a rejected non-ASCII package spec. */
export const NON_ASCII_NAME_MESSAGE =
  "package names are ASCII letters, digits and ._- only (PEP 508); non-ASCII look-alike characters are rejected";

/**
 * The longest package spec any surface accepts (HTTP, MCP): one rule, so a
 * spec one surface takes is never refused by another.
 */
export const MAX_PACKAGE_SPEC_LENGTH = 300;

/** Message of a package spec longer than {@link MAX_PACKAGE_SPEC_LENGTH}. */
export const SPEC_TOO_LONG_MESSAGE = "package spec is too long";

/** A name as `VALID_NAME` takes it, inside a requirement. */
const NAME = "[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?";
const RELEASE = "\\d+(?:\\.\\d+)*";
/** One clause: `==`/`!=`/`>=`/`<=`/`<`/`>` with a release number, `~=` with two parts or more. */
const CLAUSE = `(?:(?:==|!=|>=|<=|<|>)[ \\t]*${RELEASE}|~=[ \\t]*\\d+(?:\\.\\d+)+)`;
/** A plain requirement: a name and, optionally, comma-separated clauses. */
const PLAIN = new RegExp(
  `^(${NAME})[ \\t]*(${CLAUSE}(?:[ \\t]*,[ \\t]*${CLAUSE})*)?$`,
);
const SPLIT_CLAUSE = /^(==|!=|>=|<=|<|>|~=)[ \t]*(.*)$/;

/** One version clause of a plain requirement. */
export interface PlainClause {
  operator: string;
  version: string;
}

/**
 * A plain requirement's name and clauses, or null for any other form
 * (including surrounding whitespace: callers trim).
 *
 * @example
 * ```ts
 * plainRequirement("urllib3 >= 1.26, < 2");
 * // { name: "urllib3", clauses: [{ operator: ">=", version: "1.26" }, { operator: "<", version: "2" }] }
 * plainRequirement("a[extra]>=1"); // null
 * ```
 */
export function plainRequirement(spec: string): { name: string; clauses: PlainClause[] } | null {
  const m = PLAIN.exec(spec);
  if (!m) return null;
  const clauses = m[2] === undefined ? [] : m[2].split(",").map((part) => {
    const c = SPLIT_CLAUSE.exec(part.trim())!;
    return { operator: c[1], version: c[2] };
  });
  return { name: m[1], clauses };
}
