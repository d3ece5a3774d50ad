import { equal, rejects } from "node:assert/strict";
import { optionsFromEnv, SettingsError } from "../config/area.ts";
import { createLogger, silentLogger } from "../log/logger.ts";
import { createAuthenticator } from "./select.ts";
import { authArea } from "./settings.ts";
import { AuthNotImplementedError, LOCAL_IDENTITY } from "./types.ts";

const select = async (env: Record<string, string>) =>
  await createAuthenticator(optionsFromEnv(authArea, env), { log: silentLogger, settings: env });
const anyRequest = { headers: new Headers(), remoteAddress: "127.0.0.1" };

Deno.test("createAuthenticator() is anonymous `local` with AUTH_ENABLED=false, whatever AUTH_BACKEND says", async (t) => {
  for (const backend of ["header", "webhook", "apikey", "module:./does/not/exist.ts:Nope"]) {
    await t.step(backend, async () => {
      const auth = await select({ AUTH_BACKEND: backend, TRUSTED_PROXIES: "not a cidr" });
      equal(auth.name, "anonymous");
      equal(await auth.authenticate(anyRequest), LOCAL_IDENTITY);
    });
  }
});

Deno.test("createAuthenticator() picks the configured backend in org mode", async (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{}, "header"],
    [{ AUTH_BACKEND: "header", TRUSTED_PROXIES: "10.0.0.0/8, fd00::/8" }, "header"],
    [{ AUTH_BACKEND: "webhook", AUTH_VERIFY_URL: "http://127.0.0.1:9/verify" }, "webhook"],
    [{ AUTH_BACKEND: "apikey" }, "apikey"],
  ];
  for (const [env, name] of cases) {
    await t.step(`${JSON.stringify(env)} → ${name}`, async () => {
      equal((await select({ AUTH_ENABLED: "true", ...env })).name, name);
    });
  }
});

Deno.test("createAuthenticator() names the variable of a bad setting", async (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ TRUSTED_PROXIES: "127.0.0.1/33" }, "Invalid setting TRUSTED_PROXIES"],
    [{ TRUSTED_PROXIES: "gateway.internal" }, "Invalid setting TRUSTED_PROXIES"],
    [{ TRUSTED_PROXIES: " , " }, "Invalid setting TRUSTED_PROXIES"],
    [{ AUTH_BACKEND: "webhook" }, "Invalid setting AUTH_VERIFY_URL"],
    [
      { AUTH_BACKEND: "webhook", AUTH_VERIFY_URL: "ftp://verify.example/" },
      "Invalid setting AUTH_VERIFY_URL",
    ],
    [{ AUTH_BACKEND: "module:./does/not/exist.ts:Nope" }, "Invalid setting AUTH_BACKEND"],
  ];
  for (const [env, message] of cases) {
    await t.step(message + " " + JSON.stringify(env), async () => {
      await rejects(
        select({ AUTH_ENABLED: "true", ...env }),
        (e) => e instanceof SettingsError && e.message.startsWith(message),
      );
    });
  }
});

Deno.test("the apikey placeholder fails loudly at request time", async () => {
  const lines: string[] = [];
  const env = { AUTH_ENABLED: "true", AUTH_BACKEND: "apikey" };
  const auth = await createAuthenticator(optionsFromEnv(authArea, env), {
    log: createLogger("debug", (l) => lines.push(l)),
    settings: env,
  });
  await rejects(auth.authenticate(anyRequest), (e) => e instanceof AuthNotImplementedError);
  equal(lines.some((l) => JSON.parse(l).level === "error"), true);
});
