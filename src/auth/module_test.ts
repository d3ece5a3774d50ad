import { deepStrictEqual, equal, rejects, throws } from "node:assert/strict";
import { join } from "node:path";
import { SettingsError } from "../config/area.ts";
import { silentLogger } from "../log/logger.ts";
import { loadModuleAuthenticator, parseModuleReference } from "./module.ts";

const MODULE_SOURCE = `
export class TeamAuth {
  constructor({ settings, log }) {
    this.group = settings.OPERATOR_GROUP;
    this.hasLog = typeof log.info === "function";
  }
  authenticate(request) {
    const user = request.headers.get("x-team-user");
    if (!user) throw new Error("no user");
    return Promise.resolve({ id: user, groups: [this.group], raw: { hasLog: this.hasLog } });
  }
}
export class Broken {
  authenticate() { return { groups: [] }; }
}
export const notAClass = 1;
export class NoMethod {}
`;

Deno.test("parseModuleReference() splits at the last ':' and resolves paths against cwd", () => {
  deepStrictEqual(parseModuleReference("module:./auth/team.ts:TeamAuth", "/srv/policyd"), {
    specifier: "file:///srv/policyd/auth/team.ts",
    exportName: "TeamAuth",
  });
  deepStrictEqual(parseModuleReference("module:file:///opt/x/a.ts:A", "/srv"), {
    specifier: "file:///opt/x/a.ts",
    exportName: "A",
  });
  equal(parseModuleReference("module:/opt/a.ts:A", "/srv").specifier, "file:///opt/a.ts");
  equal(
    parseModuleReference("module:npm:@acme/policyd-auth:Acme", "/srv").specifier,
    "npm:@acme/policyd-auth",
  );
  throws(() => parseModuleReference("module:./a.ts", "/srv"), SettingsError);
  throws(() => parseModuleReference("module::A", "/srv"), SettingsError);
});

Deno.test("loadModuleAuthenticator() constructs the class with { settings, log }", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "policyd-auth-module-" });
  try {
    await Deno.writeTextFile(join(dir, "team_auth.js"), MODULE_SOURCE);
    const settings = { OPERATOR_GROUP: "ops" };
    const load = (exportName: string) =>
      loadModuleAuthenticator(`module:./team_auth.js:${exportName}`, {
        settings,
        log: silentLogger,
        cwd: dir,
      });

    await t.step("a working class", async () => {
      const auth = await load("TeamAuth");
      equal(auth.name, "module:TeamAuth");
      deepStrictEqual(
        await auth.authenticate({
          headers: new Headers({ "x-team-user": "carol" }),
          remoteAddress: null,
        }),
        { id: "carol", groups: ["ops"], raw: { hasLog: true } },
      );
    });
    await t.step("an identity without id is a bug, not a login", async () => {
      const auth = await load("Broken");
      await rejects(auth.authenticate({ headers: new Headers(), remoteAddress: null }), TypeError);
    });
    for (const name of ["Missing", "notAClass", "NoMethod"]) {
      await t.step(`${name} fails at start-up`, () => rejects(load(name), SettingsError));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
