/**
 * Settings area `store`: where the audit and approval data live.
 *
 * @module
 */
import { z } from "zod";
import { defineArea } from "../config/area.ts";

/** Typed options of the store. */
export interface StoreOptions {
  /** SQLite database file. */
  dbPath: string;
}

/** The `store` area. */
export const storeArea = defineArea({
  name: "store",
  variables: {
    POLICY_DB_PATH: z.string().min(1).default("./policyd.db"),
  },
  options: (v): StoreOptions => ({ dbPath: v.POLICY_DB_PATH }),
});
