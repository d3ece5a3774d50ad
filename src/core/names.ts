/**
 * PEP 503 name normalisation and PEP 508 name validation.
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
