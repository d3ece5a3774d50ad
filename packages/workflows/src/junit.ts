/**
 * Reads the verdicts of a `deno test --junit-path` report.
 *
 * Deno's JUnit output is a fixed, flat shape (`testsuites > testsuite >
 * testcase` with at most a `failure`, `error` or `skipped` child), so a small
 * targeted reader is used instead of adding an XML dependency to the library.
 *
 * @module
 */

/** The runner's view of one test case. */
export type Verdict = "passed" | "failed" | "skipped";

/** Verdicts keyed by `testKey(file, name)`, plus the files that ran. */
export interface JUnitReport {
  verdicts: Map<string, Verdict>;
  /** Files (`./tests/x_test.ts`) that have a test suite in the report. */
  files: Set<string>;
  /** Keys of distinct tests (different declaration positions) sharing a file and name. */
  ambiguous: Set<string>;
}

/**
 * The key of a test: file as JUnit writes it (`classname`) and test name.
 *
 * @example
 * ```ts
 * import { testKey } from "./junit.ts";
 * testKey("./a_test.ts", "flow"); // "./a_test.ts\u0000flow"
 * ```
 */
export function testKey(file: string, name: string): string {
  return `${file}\0${name}`;
}

/**
 * Parses a Deno JUnit report. A test case with a `failure` or `error` child
 * failed, one with `skipped` did not run, any other passed. Repeated entries
 * of one test (`--repeats`) combine: the test passed only if every entry did.
 *
 * @example
 * ```ts
 * import { parseJUnit, testKey } from "./junit.ts";
 * const report = parseJUnit(
 *   '<testsuites><testsuite name="./a_test.ts"><testcase name="ok" classname="./a_test.ts" line="1" col="6"></testcase></testsuite></testsuites>',
 * );
 * report.verdicts.get(testKey("./a_test.ts", "ok")); // "passed"
 * ```
 */
export function parseJUnit(xml: string): JUnitReport {
  const verdicts = new Map<string, Verdict>();
  const positions = new Map<string, string>();
  const ambiguous = new Set<string>();
  const files = new Set<string>();
  for (const suite of xml.matchAll(/<testsuite\b([^>]*)>/g)) {
    const name = attributes(suite[1]).get("name");
    if (name !== undefined) files.add(name);
  }
  const cases = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g;
  for (const match of xml.matchAll(cases)) {
    const attrs = attributes(match[1]);
    const key = testKey(attrs.get("classname") ?? "", attrs.get("name") ?? "");
    const body = match[2] ?? "";
    const verdict: Verdict = /<(failure|error)\b/.test(body)
      ? "failed"
      : /<skipped\b/.test(body)
      ? "skipped"
      : "passed";
    const position = `${attrs.get("line")}:${attrs.get("col")}`;
    const seenAt = positions.get(key);
    if (seenAt !== undefined && seenAt !== position) ambiguous.add(key);
    positions.set(key, position);
    const previous = verdicts.get(key);
    verdicts.set(
      key,
      previous === undefined || previous === verdict ? verdict : worst(previous, verdict),
    );
  }
  return { verdicts, files, ambiguous };
}

function worst(a: Verdict, b: Verdict): Verdict {
  if (a === "failed" || b === "failed") return "failed";
  return "skipped";
}

function attributes(source: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of source.matchAll(/([\w:-]+)="([^"]*)"/g)) out.set(m[1], decodeEntities(m[2]));
  return out;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|quot|apos|amp);/gi, (_, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith("#x")) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith("#")) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" }[lower] ?? "";
  });
}
