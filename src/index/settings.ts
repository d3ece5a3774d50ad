/**
 * Settings area `index`: where the policy index reads project pages from and
 * how long a fetched page is served before it is revalidated upstream.
 *
 * @module
 */
import { z } from "zod";
import { defineArea } from "../config/area.ts";
import { nonNegativeVar } from "../config/kinds.ts";

/** Typed options of the policy index. */
export interface IndexOptions {
  /** The upstream simple index, with a trailing slash (`https://pypi.org/simple/`). */
  upstreamUrl: string;
  /** Seconds a fetched page is used without asking upstream; after that it is revalidated. */
  freshSeconds: number;
}

/** The `index` area. */
export const indexArea = defineArea({
  name: "index",
  variables: {
    INDEX_UPSTREAM_URL: z.url().default("https://pypi.org/simple/"),
    INDEX_PAGE_FRESH_SECONDS: nonNegativeVar.default(60),
  },
  options: (v): IndexOptions => ({
    upstreamUrl: v.INDEX_UPSTREAM_URL.endsWith("/")
      ? v.INDEX_UPSTREAM_URL
      : `${v.INDEX_UPSTREAM_URL}/`,
    freshSeconds: v.INDEX_PAGE_FRESH_SECONDS,
  }),
});
