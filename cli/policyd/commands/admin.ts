/**
 * `policyd admin keys create NAME | list | revoke ID`: placeholders for the
 * organisation-mode API-key tooling. Each prints what it will do and exits 2,
 * so scripts cannot mistake a placeholder for success (SPEC §12, §15.16).
 *
 * @module
 */
import type { CommandIO } from "../io.ts";

/** Exit code of a placeholder command. */
export const EXIT_NOT_IMPLEMENTED = 2;

/** What each placeholder will do once implemented. */
export function plannedAction(action: "create" | "list" | "revoke", argument?: string): string {
  switch (action) {
    case "create":
      return `create an API key named "${argument}" for AUTH_BACKEND=apikey, store only its hash in the database, and print the key once`;
    case "list":
      return "list API keys (id, name, created, last used, revoked) without revealing them";
    case "revoke":
      return `revoke the API key with id "${argument}" so requests using it get 401`;
  }
}

/** Runs a placeholder: prints the plan and returns {@link EXIT_NOT_IMPLEMENTED}. */
export function adminKeys(
  action: "create" | "list" | "revoke",
  argument: string | undefined,
  io: CommandIO,
): number {
  io.stdout(
    `policyd admin keys ${action}: not implemented yet. It will ${
      plannedAction(action, argument)
    }.\n`,
  );
  return EXIT_NOT_IMPLEMENTED;
}
