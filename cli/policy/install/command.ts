/**
 * How installed hooks call the client back: the absolute command recorded
 * at install time, shell-quoted.
 *
 * @module
 */

/** Quotes one argument for POSIX sh (unchanged when it is plainly safe). */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'"'"'`)}'`;
}

/** Joins argv into a sh command line. */
export function shellJoin(args: string[]): string {
  return args.map(shellQuote).join(" ");
}

/** Whether a hook command line is one `policy init` wrote (`… policy[.ts] hook`). */
export function isPolicyHookCommand(command: string): boolean {
  return /(^|[\s/'"])policy(\.ts)?['"]?\s+hook\s*$/.test(command);
}
