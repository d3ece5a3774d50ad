/**
 * A coding-agent hook payload as zod reads it: any JSON object, whose members
 * `payload.ts` then reads field by field. The source of truth of the
 * `hookPayload` validator that `deno task schema` generates into
 * `cli/policy/generated/validators.js`, which `policy hook` uses instead of
 * loading zod (docs/performance.md, "Client start-up").
 *
 * @module
 */

import { z } from "zod";

/** Any JSON object. */
export const PayloadSchema = z.looseObject({});
