/**
 * The to-do API's conventions, rendered as the document's first section.
 *
 * @module
 */
import type { ApiConventions } from "@policyd/workflows";

/** What every workflow of the to-do API relies on. */
export const conventions: ApiConventions = {
  basePath: "/v1",
  authentication: {
    summary: "Every route under /v1 needs the API key in the X-Api-Key header.",
    modes: [{ name: "X-Api-Key", meaning: "the key issued to your application" }],
  },
  errors: {
    summary: "Errors are problem details.",
    mediaType: "application/problem+json",
    statuses: [
      { name: "400", meaning: "a required field is missing" },
      { name: "401", meaning: "no or a wrong API key" },
      { name: "404", meaning: "the list or to-do does not exist" },
    ],
  },
  notes: ["Lists page with `limit` and `after` (the `next_after` of the previous page)."],
};
