/**
 * Atomic file writes for the registry: a temporary file in the same
 * directory, then rename, so a crash never leaves a truncated registry. The
 * one implementation lives in the workflow docs library, which policyd uses.
 *
 * @module
 */
export { writeFileAtomic } from "@policyd/workflows";
