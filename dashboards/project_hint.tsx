/**
 * Known projects for the project filters (issue #31): a list to pick from
 * and, for a project nobody recorded, "no project named … (did you mean
 * …)" instead of an empty page that reads as "nothing happened".
 *
 * @module
 */
import { distance } from "fastest-levenshtein";

/** The projects a page knows and the one its filter asks for. */
export interface ProjectContext {
  known: string[];
  /** The filter's project; null or `*` for every project. */
  asked: string | null;
}

/** Id of the `<datalist>` of known projects that project inputs point at. */
export const KNOWN_PROJECTS_LIST = "known-projects";

/**
 * Up to three known projects close to `asked` (case-insensitive equal, a
 * prefix either way, or a small edit distance), closest first.
 *
 * @example
 * ```ts
 * suggestProjects("wbe", ["web", "api", "shop-api"]); // ["web"]
 * ```
 */
export function suggestProjects(asked: string, known: readonly string[]): string[] {
  const a = asked.toLowerCase();
  const limit = Math.max(2, Math.floor(a.length / 3));
  return known
    .map((name) => {
      const n = name.toLowerCase();
      const d = n === a ? 0 : n.startsWith(a) || a.startsWith(n) ? 1 : distance(a, n);
      return { name, d };
    })
    .filter((c) => c.d <= limit)
    .sort((x, y) => x.d - y.d || x.name.localeCompare(y.name))
    .slice(0, 3)
    .map((c) => c.name);
}

/** The datalist of known projects and, for an unknown project, the notice. */
export function ProjectHint(props: { context: ProjectContext }) {
  const { known, asked } = props.context;
  const unknown = asked !== null && asked !== "*" && !known.includes(asked);
  const suggestions = unknown ? suggestProjects(asked!, known) : [];
  return (
    <>
      <datalist id={KNOWN_PROJECTS_LIST}>
        {known.map((p) => <option key={p} value={p} />)}
      </datalist>
      {unknown
        ? (
          <p class="notice warn" role="status" data-testid="unknown-project">
            No project named <code>{asked}</code> has recorded anything
            {suggestions.length
              ? (
                <>
                  {" "}(did you mean {suggestions.map((s, i) => (
                    <>
                      {i ? " or " : ""}
                      <code>{s}</code>
                    </>
                  ))}?)
                </>
              )
              : null}. Known projects: {known.length ? known.join(", ") : "none yet"}.
          </p>
        )
        : null}
    </>
  );
}
