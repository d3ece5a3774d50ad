/**
 * How the client reads the server's evaluation contract (`src/api/evaluate.ts`),
 * in zod: the source of truth of `cli/policy/generated/validators.js`, which
 * `deno task schema` generates from these schemas so that `check`, `hook` and
 * `precommit` validate answers without loading zod (docs/performance.md,
 * "Client start-up"). Nothing on those paths imports this module statically.
 *
 * @module
 */

import { z } from "zod";
import {
  EvaluationSchema as ContractEvaluation,
  ReportedCveSchema,
} from "../../src/api/evaluate.ts";

/**
 * The server's evaluation contract, read tolerantly: members added by a newer
 * server are kept, members an older server lacks are optional.
 */
export const EvaluationSchema = ContractEvaluation.partial().required({
  package: true,
  verdict: true,
}).extend({
  reason: z.string().default(""),
  cves: z.array(ReportedCveSchema.partial().required({ id: true }).loose()).default([]),
}).loose();

/** Answer of `POST /evaluate/batch`, read with {@link EvaluationSchema}. */
export const BatchSchema = z.object({ results: z.array(EvaluationSchema) });
