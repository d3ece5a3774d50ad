/**
 * A loopback fake of the GitHub REST endpoints the github proposer calls
 * through Octokit: repos.get, pulls.list, pulls.create,
 * issues.createComment. Every call is recorded.
 *
 * @module
 */

/** One recorded API call. */
export interface FakeGithubCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  authorization: string | null;
}

/** A pull request held by the fake. */
export interface FakePull {
  number: number;
  title: string;
  head: string;
  base: string;
  body: string;
  state: "open" | "closed";
  html_url: string;
  comments: string[];
}

/** A running fake. */
export interface FakeGithub {
  url: string;
  calls: FakeGithubCall[];
  pulls: FakePull[];
  /** Make the next calls to an operation (`pulls.create`, …) answer with this status. */
  failNext(
    operation: "repos.get" | "pulls.list" | "pulls.create" | "issues.createComment",
    status: number,
  ): void;
  close(): Promise<void>;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * Starts the fake for repository `owner/repo` with the given default branch.
 *
 * @example
 * ```ts
 * const github = startFakeGithub("o", "r");
 * // GITHUB_API_URL = github.url
 * await github.close();
 * ```
 */
export function startFakeGithub(owner: string, repo: string, defaultBranch = "main"): FakeGithub {
  const calls: FakeGithubCall[] = [];
  const pulls: FakePull[] = [];
  const failures = new Map<string, number>();
  const base = `/repos/${owner}/${repo}`;
  const web = `https://github.example/${owner}/${repo}`;

  const failure = (operation: string) => {
    const status = failures.get(operation);
    if (status === undefined) return null;
    failures.delete(operation);
    return json({ message: `fake failure of ${operation}` }, status);
  };

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      const path = decodeURIComponent(url.pathname);
      const text = request.method === "GET" ? "" : await request.text();
      const body = text ? JSON.parse(text) : null;
      calls.push({
        method: request.method,
        path,
        query: Object.fromEntries(url.searchParams),
        body,
        authorization: request.headers.get("authorization"),
      });
      if (request.method === "GET" && path === base) {
        return failure("repos.get") ??
          json({
            name: repo,
            full_name: `${owner}/${repo}`,
            default_branch: defaultBranch,
            html_url: web,
          });
      }
      if (request.method === "GET" && path === `${base}/pulls`) {
        const head = url.searchParams.get("head");
        const state = url.searchParams.get("state") ?? "open";
        return failure("pulls.list") ??
          json(
            pulls
              .filter((p) =>
                (!head || `${owner}:${p.head}` === head) && (state === "all" || p.state === state)
              )
              .map((p) => ({
                ...p,
                head: { ref: p.head, label: `${owner}:${p.head}` },
                base: { ref: p.base },
              })),
          );
      }
      if (request.method === "POST" && path === `${base}/pulls`) {
        const failed = failure("pulls.create");
        if (failed) return failed;
        const pull: FakePull = {
          number: pulls.length + 1,
          title: body.title,
          head: body.head,
          base: body.base,
          body: body.body ?? "",
          state: "open",
          html_url: `${web}/pull/${pulls.length + 1}`,
          comments: [],
        };
        pulls.push(pull);
        return json({ ...pull, head: { ref: pull.head }, base: { ref: pull.base } }, 201);
      }
      const comment = new RegExp(`^${base}/issues/(\\d+)/comments$`).exec(path);
      if (request.method === "POST" && comment) {
        const failed = failure("issues.createComment");
        if (failed) return failed;
        const pull = pulls.find((p) => p.number === Number(comment[1]));
        if (!pull) return json({ message: "Not Found" }, 404);
        pull.comments.push(body.body);
        return json({
          id: pull.comments.length,
          body: body.body,
          html_url: `${pull.html_url}#comment`,
        }, 201);
      }
      return json({ message: "Not Found" }, 404);
    },
  );

  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    calls,
    pulls,
    failNext: (operation, status) => void failures.set(operation, status),
    close: () => server.shutdown(),
  };
}
