/**
 * A loopback fake of the GitHub REST endpoints the github proposer and the
 * alerts' issue destination call through Octokit: repos.get, pulls.list,
 * pulls.create, issues.listForRepo, issues.create, issues.createComment.
 * Every call is recorded.
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

/** An issue held by the fake (pull requests and issues share one number sequence). */
export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  state: "open" | "closed";
  html_url: string;
  comments: string[];
}

/** A running fake. */
export interface FakeGithub {
  url: string;
  calls: FakeGithubCall[];
  pulls: FakePull[];
  issues: FakeIssue[];
  /** Make the next calls to an operation (`pulls.create`, …) answer with this status. */
  failNext(
    operation:
      | "repos.get"
      | "pulls.list"
      | "pulls.create"
      | "issues.createComment"
      | "issues.listForRepo"
      | "issues.create",
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
  const issues: FakeIssue[] = [];
  const nextNumber = () => pulls.length + issues.length + 1;
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
        const number = nextNumber();
        const pull: FakePull = {
          number,
          title: body.title,
          head: body.head,
          base: body.base,
          body: body.body ?? "",
          state: "open",
          html_url: `${web}/pull/${number}`,
          comments: [],
        };
        pulls.push(pull);
        return json({ ...pull, head: { ref: pull.head }, base: { ref: pull.base } }, 201);
      }
      if (request.method === "GET" && path === `${base}/issues`) {
        const state = url.searchParams.get("state") ?? "open";
        const labels = (url.searchParams.get("labels") ?? "").split(",").filter(Boolean);
        return failure("issues.listForRepo") ??
          json(
            issues
              .filter((i) => state === "all" || i.state === state)
              .filter((i) => labels.every((l) => i.labels.includes(l)))
              .map((i) => ({ ...i, labels: i.labels.map((name) => ({ name })) })),
          );
      }
      if (request.method === "POST" && path === `${base}/issues`) {
        const failed = failure("issues.create");
        if (failed) return failed;
        const number = nextNumber();
        const issue: FakeIssue = {
          number,
          title: body.title,
          body: body.body ?? "",
          labels: body.labels ?? [],
          state: "open",
          html_url: `${web}/issues/${number}`,
          comments: [],
        };
        issues.push(issue);
        return json({ ...issue, labels: issue.labels.map((name) => ({ name })) }, 201);
      }
      const comment = new RegExp(`^${base}/issues/(\\d+)/comments$`).exec(path);
      if (request.method === "POST" && comment) {
        const failed = failure("issues.createComment");
        if (failed) return failed;
        const pull = pulls.find((p) => p.number === Number(comment[1])) ??
          issues.find((i) => i.number === Number(comment[1]));
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
    issues,
    failNext: (operation, status) => void failures.set(operation, status),
    close: () => server.shutdown(),
  };
}
