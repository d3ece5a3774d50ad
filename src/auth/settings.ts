/**
 * Settings area `auth` (SPEC §10): the mode, the backend and its
 * requirements. The rules (the header backend needs trusted proxies, the
 * webhook backend an http(s) verifier) are written here once; the
 * authenticator factory (`select.ts`) and `policyd check-config` both use them.
 *
 * @module
 */
import { z } from "zod";
import { defineArea } from "../config/area.ts";
import { booleanVar } from "../config/kinds.ts";
import { type CidrList, parseCidrList } from "./cidr.ts";

/** Typed options of authentication. */
export type AuthOptions =
  | { enabled: false; operatorGroup: string }
  | { enabled: true; backend: "header"; trustedProxies: CidrList; operatorGroup: string }
  | { enabled: true; backend: "webhook"; verifyUrl: string; operatorGroup: string }
  | { enabled: true; backend: "apikey"; operatorGroup: string }
  | { enabled: true; backend: "module"; specifier: string; operatorGroup: string };

/** The `auth` area. */
export const authArea = defineArea({
  name: "auth",
  variables: {
    AUTH_ENABLED: booleanVar.default(false),
    AUTH_BACKEND: z
      .string()
      .regex(/^(header|webhook|apikey|module:.+:[A-Za-z_$][\w$]*)$/, {
        message: "expected header, webhook, apikey or module:<specifier>:<Export>",
      })
      .default("header"),
    AUTH_VERIFY_URL: z.url().optional(),
    OPERATOR_GROUP: z.string().min(1).default("policy-admins"),
    TRUSTED_PROXIES: z.string().default("127.0.0.1/32"),
  },
  options(v, report): AuthOptions {
    const operatorGroup = v.OPERATOR_GROUP;
    if (!v.AUTH_ENABLED) return { enabled: false, operatorGroup };
    const backend = v.AUTH_BACKEND;
    if (backend === "header") {
      let trustedProxies: CidrList = parseCidrList("");
      try {
        trustedProxies = parseCidrList(v.TRUSTED_PROXIES);
        if (trustedProxies.blocks.length === 0) {
          report("TRUSTED_PROXIES", "the header backend needs at least one CIDR block");
        }
      } catch (error) {
        report("TRUSTED_PROXIES", (error as Error).message);
      }
      return { enabled: true, backend, trustedProxies, operatorGroup };
    }
    if (backend === "webhook") {
      const verifyUrl = v.AUTH_VERIFY_URL ?? "";
      if (!verifyUrl) report("AUTH_VERIFY_URL", "required when AUTH_BACKEND=webhook");
      else if (!/^https?:$/.test(new URL(verifyUrl).protocol)) {
        report("AUTH_VERIFY_URL", "expected an http(s) URL");
      }
      return { enabled: true, backend, verifyUrl, operatorGroup };
    }
    if (backend === "apikey") return { enabled: true, backend, operatorGroup };
    return { enabled: true, backend: "module", specifier: backend, operatorGroup };
  },
});
