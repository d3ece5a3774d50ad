/**
 * The `{hooks: {Event: [{matcher, hooks: [handler…]}]}}` layout shared by
 * Claude Code, Gemini CLI and Codex settings: put exactly one of our handlers
 * in place, or take ours out, never touching anyone else's.
 *
 * @module
 */

import type { Json } from "./json_file.ts";

/** One matcher group. */
export interface Group {
  matcher?: string;
  hooks?: Json[];
  [key: string]: unknown;
}

/** Recognises a handler `policy init` wrote. */
export type IsOurs = (handler: Json) => boolean;

function groupsOf(hooks: Json, event: string): Group[] {
  return Array.isArray(hooks[event]) ? hooks[event] as Group[] : [];
}

/** `groups` without our handlers; groups we emptied are dropped. */
export function withoutOurs(groups: Group[], isOurs: IsOurs): Group[] {
  return groups
    .map((g) => ({ ...g, hooks: (g.hooks ?? []).filter((h) => !isOurs(h)) }))
    .filter((g, i) => g.hooks.length > 0 || (groups[i].hooks ?? []).length === 0);
}

/**
 * Settings with exactly one of our handlers for `event` (under `matcher`,
 * or without one when undefined). An identical handler is left in place.
 */
export function withOurHandler(
  settings: Json,
  event: string,
  matcher: string | undefined,
  handler: Json,
  isOurs: IsOurs,
): Json {
  const hooks = { ...(settings.hooks as Json | undefined ?? {}) };
  const groups = groupsOf(hooks, event);
  const ours = groups.flatMap((g) => (g.hooks ?? []).filter(isOurs).map((h) => ({ g, h })));
  const exact = ours.length === 1 && ours[0].g.matcher === matcher &&
    JSON.stringify(ours[0].h) === JSON.stringify(handler);
  if (exact) return settings;
  const group: Group = matcher === undefined ? {} : { matcher };
  group.hooks = [handler];
  hooks[event] = [...withoutOurs(groups, isOurs), group];
  return { ...settings, hooks };
}

/** Settings without any of our handlers; emptied events and `hooks` are dropped. */
export function withoutOurHandlers(settings: Json, isOurs: IsOurs): Json {
  if (typeof settings.hooks !== "object" || settings.hooks === null) return settings;
  const hooks: Json = {};
  for (const [event, groups] of Object.entries(settings.hooks as Json)) {
    const kept = Array.isArray(groups) ? withoutOurs(groups as Group[], isOurs) : groups;
    if (!Array.isArray(kept) || kept.length) hooks[event] = kept;
  }
  const after: Json = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete after.hooks;
  return after;
}

/** Whether `event` has one of our handlers. */
export function hasOurHandler(settings: Json | null, event: string, isOurs: IsOurs): boolean {
  const hooks = (settings?.hooks ?? {}) as Json;
  return groupsOf(hooks, event).some((g) => (g.hooks ?? []).some(isOurs));
}
