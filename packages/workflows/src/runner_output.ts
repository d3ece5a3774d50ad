/**
 * What the runner does with a compiled document: write it, or check that the
 * committed one is up to date, with its report lines.
 *
 * @module
 */
import { writeFileAtomic } from "./atomic_write.ts";

/** Where the document goes, and the command that rebuilds it. */
export interface DocumentTargets {
  out: string;
  json: string;
  command?: string;
}

/** The compiled document. */
export interface Compiled {
  markdown: string;
  json: string;
  count: number;
  /** Names of the workflows left out (their test failed, or was cut short). */
  dropped: string[];
}

/** How a path is shown in the runner's lines. */
export type Show = (path: string) => string;

/** Writes the document and its JSON; always false (nothing is stale after a write). */
export async function writeDocument(
  options: DocumentTargets,
  result: Compiled,
  log: (line: string) => void,
  show: Show,
): Promise<boolean> {
  await writeFileAtomic(options.json, result.json);
  await writeFileAtomic(options.out, result.markdown);
  log(`wrote ${show(options.out)} and ${show(options.json)} (${plural(result.count)})`);
  if (result.dropped.length > 0) {
    log(
      `not published in ${show(options.out)}: ${
        result.dropped.map((name) => `"${name}"`).join(", ")
      } (a workflow whose test fails is not published)`,
    );
  }
  return false;
}

/** Compares the committed document with the passing tests; true when it is stale. */
export async function checkDocument(
  options: DocumentTargets,
  result: Compiled,
  log: (line: string) => void,
  show: Show,
): Promise<boolean> {
  const stale: string[] = [];
  for (const [path, expected] of [[options.out, result.markdown], [options.json, result.json]]) {
    const actual = await Deno.readTextFile(path).catch(() => undefined);
    if (actual === expected) continue;
    stale.push(
      actual === undefined
        ? `${show(path)} is missing`
        : `${show(path)} differs from line ${firstDifference(actual, expected)}`,
    );
  }
  if (stale.length === 0) {
    log(`${show(options.out)} is up to date (${plural(result.count)})`);
    return false;
  }
  log(
    `STALE: ${stale.join("; ")}. The committed document does not match the passing tests: ` +
      `run \`${options.command ?? "workflows run"}\` locally (outside CI) and commit ${
        show(options.out)
      } and ${show(options.json)}`,
  );
  return true;
}

/** `1 workflow`, `N workflows`. */
export function plural(count: number): string {
  return count === 1 ? "1 workflow" : `${count} workflows`;
}

function firstDifference(a: string, b: string): number {
  const x = a.split("\n");
  const y = b.split("\n");
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i + 1;
}
