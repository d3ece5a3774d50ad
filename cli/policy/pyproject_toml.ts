/**
 * Reading `pyproject.toml` as TOML: parsing with one-line errors and the
 * project name. Kept apart from `pyproject.ts` (requirement parsing) so that
 * `.policy.toml` resolution, on the path of every command, loads only the
 * TOML parser.
 *
 * @module
 */

import { parse as parseToml } from "smol-toml";
import { ClientError } from "./exit_codes.ts";

/** A TOML table. */
export type Table = Record<string, unknown>;

/** Whether a TOML value is a table. */
export function isTable(value: unknown): value is Table {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses TOML text; a syntax error becomes a one-line `bad_input` error. */
export function parsePyproject(text: string, label = "pyproject.toml"): Table {
  try {
    return parseToml(text) as Table;
  } catch (error) {
    const first = String((error as Error).message).split("\n")[0];
    throw new ClientError("bad_input", `Cannot parse ${label}: ${first}`);
  }
}

/** `[project].name`, else `[tool.poetry].name`, else null. */
export function projectNameOf(doc: Table): string | null {
  const project = isTable(doc.project) ? doc.project : {};
  if (typeof project.name === "string" && project.name.trim()) return project.name.trim();
  const tool = isTable(doc.tool) ? doc.tool : {};
  const poetry = isTable(tool.poetry) ? tool.poetry : {};
  if (typeof poetry.name === "string" && poetry.name.trim()) return poetry.name.trim();
  return null;
}

/** Project name from pyproject text (null when absent or unparsable), else `dirName`. */
export function projectName(pyprojectText: string | null, dirName: string): string {
  if (pyprojectText !== null) {
    try {
      const name = projectNameOf(parsePyproject(pyprojectText));
      if (name) return name;
    } catch {
      // an unparsable pyproject.toml falls back to the directory name
    }
  }
  return dirName;
}
