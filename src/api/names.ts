/**
 * The package spec accepted by every route that names a package: a string of
 * printable ASCII (PEP 508 names are ASCII; look-alike letters are refused
 * with a 400 before anything is evaluated or audited).
 *
 * @module
 */
import { z } from "zod";
import { isAsciiSpec, NON_ASCII_NAME_MESSAGE } from "../core/names.ts";

/** A package spec (`requests` or `requests==2.31.0`), printable ASCII only. */
export const PackageSpecSchema = z
  .string({ message: "required string" })
  .refine(isAsciiSpec, { message: NON_ASCII_NAME_MESSAGE });
