/**
 * Settings area `logging`: the level of the structured JSON logs.
 *
 * @module
 */
import { z } from "zod";
import { defineArea } from "../config/area.ts";
import type { LogLevel } from "./logger.ts";

/** Typed options of logging. */
export interface LoggingOptions {
  level: LogLevel;
}

/** The `logging` area. */
export const loggingArea = defineArea({
  name: "logging",
  variables: {
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  },
  options: (v): LoggingOptions => ({ level: v.LOG_LEVEL }),
});
