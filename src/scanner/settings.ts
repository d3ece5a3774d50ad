/**
 * Settings area `scanner`: the schedule of the CVE scanner and the project
 * name its audit rows carry.
 *
 * @module
 */
import { z } from "zod";
import { defineArea } from "../config/area.ts";

/** Typed options of the scanner. */
export interface ScannerOptions {
  /** Cron expression, or `off`. */
  schedule: string;
  projectName: string;
}

/** The `scanner` area. */
export const scannerArea = defineArea({
  name: "scanner",
  variables: {
    CVE_SCAN_SCHEDULE: z.string().min(1).default("0 */6 * * *"),
    POLICY_PROJECT_NAME: z.string().min(1).default("policyd"),
  },
  options: (v): ScannerOptions => ({
    schedule: v.CVE_SCAN_SCHEDULE,
    projectName: v.POLICY_PROJECT_NAME,
  }),
});
