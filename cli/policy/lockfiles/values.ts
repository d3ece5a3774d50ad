/**
 * Reading parsed TOML/JSON documents defensively: a lock file written by a
 * newer tool may add, drop or retype members, so every access checks the type.
 *
 * @module
 */

import { parse as parseToml } from "smol-toml";
import { ClientError } from "../exit_codes.ts";

/** A TOML table or JSON object. */
export type Table = Record<string, unknown>;

/** Whether a value is a table (not an array, not null). */
export function isTable(value: unknown): value is Table {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The tables of an array, skipping anything else; [] when not an array. */
export function tables(value: unknown): Table[] {
  return Array.isArray(value) ? value.filter(isTable) : [];
}

/** A table member as a table, else {}. */
export function table(value: unknown): Table {
  return isTable(value) ? value : {};
}

/** A non-empty string, else null. */
export function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** Parses TOML; a syntax error becomes a one-line `bad_input` error naming the file. */
export function readToml(source: string, file: string): Table {
  try {
    return parseToml(source) as Table;
  } catch (error) {
    const first = String((error as Error).message).split("\n")[0];
    throw new ClientError("bad_input", `Cannot parse ${file}: ${first}`);
  }
}

/** Parses JSON; a syntax error becomes a one-line `bad_input` error naming the file. */
export function readJson(source: string, file: string): Table {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    throw new ClientError("bad_input", `Cannot parse ${file}: ${(error as Error).message}`);
  }
  if (!isTable(value)) throw new ClientError("bad_input", `Cannot parse ${file}: not an object`);
  return value;
}
