/**
 * Settings area `store`: where the audit and approval data live — SQLite at
 * `POLICY_DB_PATH`, or the PostgreSQL database of `DATABASE_URL` shared by
 * several instances — and the name of this instance among them.
 *
 * @module
 */
import { z } from "zod";
import { defineArea } from "../config/area.ts";

/** Typed options of the store. */
export interface StoreOptions {
  /** SQLite database file (used when `databaseUrl` is null). */
  dbPath: string;
  /** `postgres://…`: the shared PostgreSQL store; null for SQLite. */
  databaseUrl: string | null;
  /** `INSTANCE_ID`; null means `<hostname>:<pid>`. */
  instanceId: string | null;
}

/** The `store` area. */
export const storeArea = defineArea({
  name: "store",
  variables: {
    POLICY_DB_PATH: z.string().min(1).default("./policyd.db"),
    DATABASE_URL: z
      .string()
      .refine((v) => /^postgres(ql)?:\/\//i.test(v), {
        message:
          "expected postgres://user@host:port/database (unset uses SQLite at POLICY_DB_PATH)",
      })
      .optional(),
    INSTANCE_ID: z.string().min(1).max(200).optional(),
  },
  options: (v): StoreOptions => ({
    dbPath: v.POLICY_DB_PATH,
    databaseUrl: v.DATABASE_URL ?? null,
    instanceId: v.INSTANCE_ID ?? null,
  }),
});
