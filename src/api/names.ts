/**
 * The package spec accepted by every route that names a package: a string of
 * printable ASCII (PEP 508 names are ASCII; look-alike letters are refused
 * with a 400 before anything is evaluated or audited).
 *
 * @module
 */
import { z } from "zod";
import { isAsciiSpec, NON_ASCII_NAME_MESSAGE, VALID_NAME_PATTERN } from "../core/names.ts";

/** A package spec (`requests` or `requests==2.31.0`), printable ASCII only. */
export const PackageSpecSchema = z
  .string({ message: "required string" })
  .refine(isAsciiSpec, { message: NON_ASCII_NAME_MESSAGE });

/** The longest distribution name a path may carry (the policy index). */
export const MAX_NAME_IN_PATH = 200;

const NAME_MESSAGE = "a distribution name (letters, digits, ._-)";

/**
 * A bare distribution name (PEP 508, `core/names.ts`), as the policy index
 * takes it in a path; the route normalises it (PEP 503) by redirect.
 */
export const DistributionNameSchema = z
  .string()
  .max(MAX_NAME_IN_PATH, { message: NAME_MESSAGE })
  .regex(VALID_NAME_PATTERN, { message: NAME_MESSAGE });
