/**
 * The budget of `POST /registry/parse-yaml`: at most `maxConcurrent`
 * documents are compiled at once (more → 429 with `Retry-After`); a small
 * document compiles inline, a larger one in a Worker that is terminated when
 * it exceeds `timeoutMs` (→ 422), so no document stalls evaluations.
 *
 * @module
 */
import { type Compiled, compileRegistry } from "../registry/compile.ts";
import { ProblemError } from "./problem.ts";

/** Documents up to this size compile inline (a few milliseconds at most). */
export const INLINE_PARSE_BYTES = 16 * 1024;

/** Limits of the parse budget. */
export interface ParseBudgetOptions {
  maxConcurrent: number;
  timeoutMs: number;
}

/** Compiles registry documents within the budget. */
export type BudgetedCompile = (text: string, now: Date) => Promise<Compiled>;

const WORKER_URL = new URL("../registry/parse_worker.ts", import.meta.url);

function inWorker(text: string, now: Date, timeoutMs: number): Promise<Compiled> {
  const worker = new Worker(WORKER_URL, { type: "module" });
  return new Promise<Compiled>((resolve, reject) => {
    const timer = setTimeout(() => {
      worker.terminate();
      reject(
        new ProblemError(
          422,
          "registry-too-complex",
          `the document took longer than ${timeoutMs} ms to parse; split it or remove rules`,
          {
            ok: false,
            errors: [{ path: "(root)", message: `parsing exceeded ${timeoutMs} ms` }],
          },
        ),
      );
    }, timeoutMs);
    worker.onmessage = (event: MessageEvent<Compiled>) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      clearTimeout(timer);
      worker.terminate();
      reject(new Error(`registry parse worker failed: ${event.message}`));
    };
    worker.postMessage({ text, now: now.toISOString() });
  });
}

/**
 * Creates the budgeted compiler.
 *
 * @example
 * ```ts ignore
 * const compile = parseBudget({ maxConcurrent: 2, timeoutMs: 5000 });
 * const compiled = await compile("packages: []\n", new Date());
 * ```
 */
export function parseBudget(options: ParseBudgetOptions): BudgetedCompile {
  let running = 0;
  return async (text, now) => {
    if (running >= options.maxConcurrent) {
      throw new ProblemError(
        429,
        "parse-busy",
        `already parsing ${running} documents; try again shortly`,
        {},
        { "retry-after": "1" },
      );
    }
    running++;
    try {
      return text.length <= INLINE_PARSE_BYTES
        ? await compileRegistry(text, now)
        : await inWorker(text, now, options.timeoutMs);
    } finally {
      running--;
    }
  };
}
