/**
 * PEP 440 ordering with each version parsed once: `@renovatebot/pep440`'s
 * `compare()` parses both strings on every call, which dominates when one
 * page's hundreds of versions meet every advisory's range events. The sort
 * key is the library's own (`calculateKey` in its `operator.js`), computed
 * from its exported `parse()`; {@link versionComparer} memoises it per call
 * site. Pure: the memo lives in the returned closure.
 *
 * @module
 */
import { parse } from "@renovatebot/pep440";

type Key = unknown[];

function keyOf(version: string): Key | null {
  const parsed = parse(version);
  if (!parsed) return null;
  const release = [...parsed.release as number[]];
  while (release.length && release[release.length - 1] === 0) release.pop();
  const { post, dev } = parsed;
  let pre: unknown = parsed.pre;
  if (!pre && !post && dev) pre = -Infinity;
  else if (!pre) pre = Infinity;
  const local = parsed.local
    ? (parsed.local as unknown as Array<string | number>).map((i) =>
      Number.isNaN(Number(i)) ? [-Infinity, i] : [Number(i), ""]
    )
    : -Infinity;
  return [parsed.epoch, release, pre, post ?? -Infinity, dev ?? Infinity, local];
}

function pyCompare(elemIn: unknown, otherIn: unknown): number {
  let elem = elemIn;
  let other = otherIn;
  if (elem === other) return 0;
  if (Array.isArray(elem) !== Array.isArray(other)) {
    elem = Array.isArray(elem) ? elem : [elem];
    other = Array.isArray(other) ? other : [other];
  }
  if (Array.isArray(elem) && Array.isArray(other)) {
    const len = Math.min(elem.length, other.length);
    for (let i = 0; i < len; i += 1) {
      const res = pyCompare(elem[i], other[i]);
      if (res !== 0) return res;
    }
    return elem.length - other.length;
  }
  if (elem === -Infinity || other === Infinity) return -1;
  if (elem === Infinity || other === -Infinity) return 1;
  return (elem as string | number) < (other as string | number) ? -1 : 1;
}

/**
 * A comparison of PEP 440 versions that parses each string once; strings
 * that are not PEP 440 versions compare as strings (like `affected.ts`).
 *
 * @example
 * ```ts
 * const cmp = versionComparer();
 * cmp("1.0.dev0", "1.0a1"); // -1
 * cmp("2.0", "2.0.0"); // 0
 * ```
 */
export function versionComparer(): (a: string, b: string) => number {
  const keys = new Map<string, Key | null>();
  const key = (v: string) => {
    let k = keys.get(v);
    if (k === undefined) keys.set(v, k = keyOf(v));
    return k;
  };
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka === null || kb === null) return a === b ? 0 : a < b ? -1 : 1;
    return Math.sign(pyCompare(ka, kb));
  };
}
