/**
 * policyd's historical path of the workflows runner, kept so existing command
 * lines work: it runs `packages/workflows/runner.ts` (`@policyd/workflows/runner`).
 *
 * @module
 */
import { runAsProgram } from "../packages/workflows/runner.ts";

if (import.meta.main) await runAsProgram();
