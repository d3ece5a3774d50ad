/**
 * Worker entry that compiles one registry document off the main thread, so a
 * large parse-yaml document cannot stall evaluations (see
 * `src/http/parse_budget.ts`). Message in: `{text, now}`; out: a `Compiled`.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { compileRegistry } from "./compile.ts";

self.onmessage = async (event: MessageEvent<{ text: string; now: string }>) => {
  self.postMessage(await compileRegistry(event.data.text, new Date(event.data.now)));
};
