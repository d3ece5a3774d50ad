/**
 * Settings area `registry`: the registry file and its reload poller.
 *
 * @module
 */
import { z } from "zod";
import { defineArea } from "../config/area.ts";
import { nonNegativeVar } from "../config/kinds.ts";

/** Default registry path used for reading when `REGISTRY_PATH` is unset (SPEC §15.21). */
export const DEFAULT_REGISTRY_PATH = "./registry/registry.yaml";

/** Typed options of the registry. */
export interface RegistryOptions {
  /** The file to read. */
  path: string;
  /** Whether `REGISTRY_PATH` was set (§15.7: proposer auto-detection). */
  pathSet: boolean;
  /** Seconds between mtime polls; 0 disables. */
  reloadIntervalSeconds: number;
}

/** The `registry` area. */
export const registryArea = defineArea({
  name: "registry",
  variables: {
    REGISTRY_PATH: z.string().optional(),
    REGISTRY_RELOAD_INTERVAL: nonNegativeVar.default(5),
  },
  options: (v): RegistryOptions => ({
    path: v.REGISTRY_PATH ?? DEFAULT_REGISTRY_PATH,
    pathSet: v.REGISTRY_PATH !== undefined,
    reloadIntervalSeconds: v.REGISTRY_RELOAD_INTERVAL,
  }),
});
