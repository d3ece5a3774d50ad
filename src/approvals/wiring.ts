/**
 * Wiring of the approvals capability for the composition root: the
 * proposer (selected once), the approval service and the merge webhook,
 * and their shutdown order. Part of the composition (called by
 * `src/server.ts` only): the one module of `src/approvals` that constructs
 * adapters (the proposer, the generic `git pull`).
 *
 * @module
 */
import type { ParsedSettings } from "../config/area.ts";
import type { ProposerOptions } from "../proposers/settings.ts";
import type { RegistryOptions } from "../registry/settings.ts";
import type { Logger } from "../log/logger.ts";
import { pullRegistryWorkTree } from "../proposers/git_pull.ts";
import { selectProposer } from "../proposers/select.ts";
import type { Proposer } from "../proposers/types.ts";
import type { LiveRegistry } from "../registry/live.ts";
import type { Store } from "../store/types.ts";
import type { ChangeLog } from "./change_log.ts";
import { createReviewLifecycle, type ReviewLifecycle } from "./review.ts";
import { type ApprovalService, createApprovalService } from "./service.ts";
import { createWebhookHandler, type WebhookHandler } from "./webhook.ts";

/** The wired approvals capability. */
export interface Approvals {
  proposer: Proposer;
  approvals: ApprovalService;
  /** Reject, dismiss and revert (issue #31). */
  review: ReviewLifecycle;
  webhook: WebhookHandler;
  /** Stops the proposer, lets running proposals record their outcome, stops timers. */
  close(): Promise<void>;
}

/** The settings the approvals capability reads: two areas' options, and the parsed settings for `module:` proposers. */
export interface ApprovalsSettings {
  proposers: ProposerOptions;
  registry: RegistryOptions;
  /** Passed through untouched to a `module:` proposer class (SPEC §15.29). */
  settings: ParsedSettings;
}

/**
 * Selects the proposer and builds the approval service and webhook.
 *
 * @example
 * ```ts
 * import { optionsFromEnv } from "../config/area.ts";
 * import { silentLogger as log } from "../log/logger.ts";
 * import { proposersArea } from "../proposers/settings.ts";
 * import { registryArea } from "../registry/settings.ts";
 * import type { LiveRegistry } from "../registry/live.ts";
 * import type { Store } from "../store/types.ts";
 * declare const registry: LiveRegistry;
 * declare const store: Store;
 * declare const changes: import("./change_log.ts").ChangeLog;
 * const env = { REGISTRY_PATH: "registry/registry.yaml" };
 * const wired = await wireApprovals(
 *   {
 *     proposers: optionsFromEnv(proposersArea, env),
 *     registry: optionsFromEnv(registryArea, env),
 *     settings: env,
 *   },
 *   { log, registry, store, changes },
 * );
 * wired.proposer.name; // "local_file"
 * ```
 */
export async function wireApprovals(
  settings: ApprovalsSettings,
  deps: {
    log: Logger;
    registry: LiveRegistry;
    store: Store;
    changes: ChangeLog;
    now?: () => Date;
  },
): Promise<Approvals> {
  const reload = () => deps.registry.reload();
  const proposer = await selectProposer({
    options: settings.proposers,
    registry: settings.registry,
    settings: settings.settings,
    log: deps.log,
    reload,
  });
  const approvals = createApprovalService({
    store: deps.store,
    registry: deps.registry,
    proposer,
    log: deps.log,
    now: deps.now,
    changes: deps.changes,
  });
  const review = createReviewLifecycle({
    store: deps.store,
    registry: deps.registry,
    approvals,
    changes: deps.changes,
    now: deps.now ?? (() => new Date()),
  });
  const secrets = settings.proposers.webhookSecret ? [settings.proposers.webhookSecret] : [];
  const webhook = createWebhookHandler({
    secret: settings.proposers.webhookSecret,
    sync: (hint) =>
      proposer.syncMerged
        ? proposer.syncMerged(hint)
        : pullRegistryWorkTree(settings.registry.path, secrets),
    reload,
    log: deps.log,
  });
  return {
    proposer,
    approvals,
    review,
    webhook,
    async close() {
      try {
        await proposer.close?.();
      } catch (error) {
        deps.log.warn("closing the proposer failed", { error: (error as Error).message });
      }
      await approvals.close();
    },
  };
}
