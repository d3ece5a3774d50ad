/**
 * policyd's historical import path of the workflow docs library, kept so
 * `import … from "../../src/workflows/mod.ts"` keeps working. The library is
 * the workspace package `@policyd/workflows` (`packages/workflows/`); this
 * module only re-exports it.
 *
 * @module
 */
export * from "../../packages/workflows/mod.ts";
