/**
 * Settings area `popular`: where the list of the most downloaded PyPI
 * projects (the typosquat rule's "popular" names, SPEC §17.2) is refreshed
 * from on the scanner's schedule.
 *
 * @module
 */
import { z } from "zod";
import { defineArea } from "../config/area.ts";

/** The published list policyd's shipped copy comes from (hugovk/top-pypi-packages). */
export const DEFAULT_POPULAR_PACKAGES_URL =
  "https://hugovk.github.io/top-pypi-packages/top-pypi-packages.min.json";

/** Typed options of the popular-project list. */
export interface PopularOptions {
  /** Where to refresh the list from; null = keep the shipped list. */
  url: string | null;
}

/** The `popular` area. */
export const popularArea = defineArea({
  name: "popular",
  variables: {
    POPULAR_PACKAGES_URL: z.union([z.literal("off"), z.url()]).default(
      DEFAULT_POPULAR_PACKAGES_URL,
    ).describe("top-PyPI-projects JSON refreshed on the scanner's schedule, or `off`"),
  },
  options: (v): PopularOptions => ({
    url: v.POPULAR_PACKAGES_URL === "off" ? null : v.POPULAR_PACKAGES_URL,
  }),
});
