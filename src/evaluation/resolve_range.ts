/**
 * Ranges judged as installed (issue 27 point 7): a requirement with a range
 * (`urllib3<2`) is evaluated at the release an installer would pick, the
 * newest non-yanked release the range admits (pre-releases only when the
 * range names one, as pip does), or at the range's bound when the release
 * list is unavailable. Pure: callers pass the release list.
 *
 * @module
 */
import { explain, maxSatisfying, validRange } from "@renovatebot/pep440";

/** One release of a project as the index lists it. */
export interface Release {
  version: string;
  /** Every file of the release is yanked (PEP 592). */
  yanked: boolean;
}

/** Most range strings each memo below keeps; it starts over when full. */
const REMEMBERED_RANGES = 1_000;

/**
 * `read` remembered per range string. A batch repeats the same few ranges
 * (`>=1.0` fifty times), and the PEP 440 reader costs 2–4 µs a call; the
 * answers are strings, booleans or null, so sharing one changes nothing.
 */
function memoByRange<T>(read: (range: string) => T): (range: string) => T {
  let memory = new Map<string, T>();
  return (range) => {
    if (memory.has(range)) return memory.get(range) as T;
    const value = read(range);
    if (memory.size >= REMEMBERED_RANGES) memory = new Map();
    memory.set(range, value);
    return value;
  };
}

/** Whether `range` is a PEP 440 version specifier set (`<2`, `>=1.2,!=1.3`). */
export const isRange: (range: string) => boolean = memoByRange((range) => validRange(range));

/**
 * The newest non-yanked release `range` admits, or null when none does.
 *
 * @example
 * ```ts
 * import { newestAdmitted } from "./resolve_range.ts";
 * newestAdmitted("<2", [{ version: "1.26.18", yanked: false }, { version: "2.2.2", yanked: false }]); // "1.26.18"
 * ```
 */
export function newestAdmitted(range: string, releases: readonly Release[]): string | null {
  const usable = releases.filter((r) => !r.yanked && explain(r.version) !== null);
  const names = (v: string) => explain(v)?.is_prerelease === true;
  const allowPre = /\d(?:a|b|rc|alpha|beta|c|pre|preview|dev)\d*/i.test(range);
  const candidates = usable.map((r) => r.version).filter((v) => allowPre || !names(v));
  return maxSatisfying(candidates, range) ?? null;
}

/**
 * The version a range is judged at without a release list: its lower bound
 * (`>=X`, `~=X`, `==X`, `>X`), else its upper bound (`<=X`, `<X`), else null.
 *
 * @example
 * ```ts
 * import { rangeBound } from "./resolve_range.ts";
 * rangeBound(">=1.2,<2"); // "1.2"
 * rangeBound("<2"); // "2"
 * ```
 */
export const rangeBound: (range: string) => string | null = memoByRange(boundOf);

function boundOf(range: string): string | null {
  const clauses = range.split(",").map((part) =>
    /^\s*(===|==|>=|<=|~=|!=|>|<)\s*(\S+?)\s*$/.exec(part)
  )
    .filter((m): m is RegExpExecArray => m !== null && !m[2].includes("*"));
  for (const wanted of [["==", "==="], [">=", "~=", ">"], ["<=", "<"]]) {
    const hit = clauses.find((m) => wanted.includes(m[1]) && explain(m[2]) !== null);
    if (hit) return hit[2];
  }
  return null;
}
