/**
 * The phrases of the workflows' **Requires:** lines, worded once so every
 * workflow names the same settings and services the same way (the document's
 * `## Settings` lists, per variable, the workflows whose line names it).
 *
 * @module
 */

/** The server as `policyd quickstart` runs it, with its example registry. */
export const QUICKSTART_SERVER =
  "a running server in single-user mode with the example registry (`policyd quickstart` serves " +
  "both; otherwise REGISTRY_PATH pointing at a copy of registry/registry.yaml)";

/** What org mode adds to a call. */
export const ORG_MODE_IDENTITY = "in org mode, the gateway's identity headers on every call";

/** OSV and PyPI, and how to reach them offline. */
export const LOOKUPS =
  "OSV and PyPI reachable from the server (OSV_API_URL, PYPI_URL; offline, point each at a " +
  "mirror or a loopback server replaying recorded answers, see Settings): without them the " +
  "data is `unavailable` and the verdict rests on the registry alone";

/** PyPI alone, and how to reach it offline. */
export const PYPI =
  "PyPI reachable from the server (PYPI_URL; offline, a mirror or a loopback replay of " +
  "`/pypi/<name>/json`, see Settings)";

/** An operator's rights. */
export const OPERATOR =
  "an operator (anyone in single-user mode; a member of OPERATOR_GROUP in org mode)";
