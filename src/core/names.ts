/**
 * PEP 503 name normalisation and PEP 508 name validation.
 *
 * @module
 */

const VALID_NAME = /^([A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$/i;

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
  return VALID_NAME.test(name);
}
