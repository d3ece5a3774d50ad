/**
 * The keys a `.policy.toml` may set (SPEC §11 table), in zod: the source of
 * truth of the `configFile` validator that `deno task schema` generates into
 * `cli/policy/generated/validators.js`. `config.ts` loads this module only to
 * word the error of a file the generated validator rejects.
 *
 * @module
 */

import { z } from "zod";

/** A `.policy.toml` as written: every key optional, unknown keys rejected. */
export const ConfigFileSchema = z.strictObject({
  project: z.string().min(1).optional(),
  server_url: z.url({ protocol: /^https?$/ }).optional(),
  mode: z.enum(["single-user", "org"]).optional(),
  fail_open: z.boolean().optional(),
  api_key_env_var: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
  auto_request_approval: z.boolean().optional(),
  timeout_seconds: z.number().positive().max(600).optional(),
});

/** The keys a `.policy.toml` may set, all optional. */
export type ConfigFile = z.infer<typeof ConfigFileSchema>;
