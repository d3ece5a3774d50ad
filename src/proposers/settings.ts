/**
 * Settings area `proposers`: which proposer runs approved rules, the github
 * proposer's clone and API access, the bot identity, and the merge webhook's
 * secret.
 *
 * @module
 */
import { z } from "zod";
import { defineArea } from "../config/area.ts";

/** Typed options of the proposers. */
export interface ProposerOptions {
  /** `REGISTRY_PROPOSER`, or null for auto-detection. */
  proposer: string | null;
  /** `REGISTRY_WEBHOOK_SECRET`, or null when the merge webhook is off. */
  webhookSecret: string | null;
  /** `REGISTRY_REPO_URL`: the registry repository the github proposer clones. */
  repoUrl: string | null;
  /** `REGISTRY_REPO_WORKDIR`: where the clone lives. */
  repoWorkdir: string;
  /** `REGISTRY_REPO_FILE`: the registry file inside the clone. */
  repoFile: string;
  /** `REGISTRY_GITHUB_REPO` (`owner/name`), when the URL does not name it. */
  githubRepo: string | null;
  /** `GITHUB_TOKEN`. */
  githubToken: string | null;
  /** `GITHUB_API_URL`. */
  githubApiUrl: string;
  /** The commit identity (`REGISTRY_BOT_AUTHOR_NAME`, `REGISTRY_BOT_AUTHOR_EMAIL`). */
  bot: { name: string; email: string };
}

/** The `proposers` area. */
export const proposersArea = defineArea({
  name: "proposers",
  variables: {
    REGISTRY_WEBHOOK_SECRET: z.string().min(1).optional(),
    REGISTRY_PROPOSER: z
      .string()
      .regex(/^(log_only|local_file|local_git|github|module:.+:[A-Za-z_$][\w$]*)$/, {
        message: "expected log_only, local_file, local_git, github or module:<specifier>:<Export>",
      })
      .optional(),
    REGISTRY_REPO_URL: z.string().min(1).optional(),
    REGISTRY_REPO_WORKDIR: z.string().min(1).default("./.policyd/registry-repo"),
    REGISTRY_REPO_FILE: z.string().min(1).default("registry/registry.yaml"),
    REGISTRY_GITHUB_REPO: z
      .string()
      .regex(/^[\w.-]+\/[\w.-]+$/, { message: "expected owner/name" })
      .optional(),
    REGISTRY_BOT_AUTHOR_NAME: z.string().min(1).default("policyd-bot"),
    REGISTRY_BOT_AUTHOR_EMAIL: z.string().min(1).default("policyd-bot@users.noreply.github.com"),
    GITHUB_TOKEN: z.string().min(1).optional(),
    GITHUB_API_URL: z.url().default("https://api.github.com"),
  },
  options: (v): ProposerOptions => ({
    proposer: v.REGISTRY_PROPOSER ?? null,
    webhookSecret: v.REGISTRY_WEBHOOK_SECRET ?? null,
    repoUrl: v.REGISTRY_REPO_URL ?? null,
    repoWorkdir: v.REGISTRY_REPO_WORKDIR,
    repoFile: v.REGISTRY_REPO_FILE,
    githubRepo: v.REGISTRY_GITHUB_REPO ?? null,
    githubToken: v.GITHUB_TOKEN ?? null,
    githubApiUrl: v.GITHUB_API_URL,
    bot: { name: v.REGISTRY_BOT_AUTHOR_NAME, email: v.REGISTRY_BOT_AUTHOR_EMAIL },
  }),
});
