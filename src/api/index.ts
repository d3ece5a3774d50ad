/**
 * Contracts of the policy index (issue 28): the PEP 503/691 simple index at
 * `/simple/` and per project at `/p/{project}/simple/`, and the file route
 * the pages link to. Answers are the simple repository formats, not JSON
 * documents of this API; errors a user sees from an installer are one line.
 *
 * @module
 */
import { z } from "zod";
import { defineRoute, type RouteContract } from "./contract.ts";
import { ProjectNameSchema } from "./headers.ts";
import { DistributionNameSchema } from "./names.ts";

/** The JSON media type of the simple repository API (PEP 691). */
export const SIMPLE_JSON_TYPE = "application/vnd.pypi.simple.v1+json";

/** A project name in a path; normalised by redirect (PEP 503). */
export const IndexNameParamsSchema = z.object({ name: DistributionNameSchema });

/** A project of the audit log in a path. */
export const IndexProjectParamsSchema = z.object({ project: ProjectNameSchema });

/** A file of a project page. */
export const IndexFileParamsSchema = IndexNameParamsSchema.extend({
  filename: z.string().regex(/^[\w.+!-]{1,300}$/, {
    message: "a distribution file name (letters, digits, ._+!-)",
  }),
});

const PAGE_RESPONSES = {
  200: {
    description: "the project page without the files of denied versions " +
      "(PEP 691 JSON or PEP 503 HTML, by Accept)",
    schema: z.string(),
    contentType: "text/html",
  },
  301: { description: "redirect to the normalised name (PEP 503) with a trailing slash" },
  304: { description: "If-None-Match names the page's current ETag: no body" },
  404: {
    description: "no such project upstream, or the project is denied as a whole: one line why " +
      "(JSON: PEP 792 project-status where it applies)",
    schema: z.string(),
    contentType: "text/plain",
  },
  406: { description: "Accept names no simple repository format", schema: z.string() },
};

const PAGE_ERRORS = { 400: "invalid project name", 502: "the upstream index is unavailable" };

function routes(prefix: string, project: boolean): RouteContract[] {
  const params = (schema: z.ZodObject) =>
    project ? IndexProjectParamsSchema.extend(schema.shape) : schema;
  const scope = project ? " (decisions and audit rows carry the project)" : "";
  return [
    defineRoute("get", `${prefix}/simple/`, {
      base: "",
      summary: `The policy index root: the registry's installable packages${scope}.`,
      ...(project ? { params: IndexProjectParamsSchema } : {}),
      responses: {
        200: { description: "PEP 691 JSON or PEP 503 HTML", schema: z.string() },
      },
    }),
    defineRoute("get", `${prefix}/simple/:name/`, {
      base: "",
      summary: `A project page of the policy index${scope}.`,
      params: params(IndexNameParamsSchema),
      responses: PAGE_RESPONSES,
      errors: PAGE_ERRORS,
    }),
    defineRoute("get", `${prefix}/simple/:name`, {
      base: "",
      summary: "Redirects to the normalised project page with a trailing slash.",
      params: params(IndexNameParamsSchema),
      responses: { 301: { description: "to `…/simple/{normalised}/`" } },
      errors: { 400: "invalid project name" },
    }),
    defineRoute("get", `${prefix}/files/:name/:filename`, {
      base: "",
      summary: `A file of an allowed version, streamed from upstream and audited${scope}.`,
      description: "Each download is an audit row (source `index`) naming the version and " +
        "file name. `{file}.metadata` serves the PEP 658 core metadata (not audited).",
      params: params(IndexFileParamsSchema),
      responses: {
        200: {
          description: "the file",
          schema: z.string(),
          contentType: "application/octet-stream",
        },
        403: { description: "the file's version is denied: one line why", schema: z.string() },
      },
      errors: {
        400: "invalid name",
        404: "not a file of the project's page",
        502: "the upstream index is unavailable",
      },
    }),
  ];
}

/** The index routes at the server root. */
export const INDEX_ROUTES: readonly RouteContract[] = [
  ...routes("", false),
  ...routes("/p/:project", true),
];
