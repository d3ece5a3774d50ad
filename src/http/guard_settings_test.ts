import assert from "node:assert/strict";
import { optionsFromEnv, SettingsError } from "../config/area.ts";
import { guardArea } from "./guard_settings.ts";
import { hostAllowList, hostNameOf } from "./middleware/allowed_hosts.ts";
import { isTransientAcceptError } from "./timed_server.ts";

Deno.test("ALLOWED_HOSTS: names are lower-cased; a URL or a name with a port is reported", () => {
  const ok = optionsFromEnv(guardArea, { ALLOWED_HOSTS: "Policy.Example.com, 10.0.0.5" });
  assert.deepEqual(ok.allowedHosts, ["policy.example.com", "10.0.0.5"]);
  assert.throws(
    () => optionsFromEnv(guardArea, { ALLOWED_HOSTS: "https://x.example, y.example:8765" }),
    (e) =>
      e instanceof SettingsError &&
      e.issues.map((i) => i.variable).join() === "ALLOWED_HOSTS,ALLOWED_HOSTS",
  );
  assert.throws(() => optionsFromEnv(guardArea, { MAX_CONNECTIONS: "-1" }), SettingsError);
});

Deno.test("the host allow-list: loopback, the bind address, listed names; a wildcard bind admits this machine", () => {
  const allowed = hostAllowList({ bindHost: "127.0.0.1", allowedHosts: ["policy.example.com"] });
  for (const host of ["localhost:8765", "app.localhost", "127.0.0.1:1", "127.9.9.9", "[::1]:80"]) {
    assert.equal(allowed(hostNameOf(host)!), true, host);
  }
  assert.equal(allowed("policy.example.com"), true);
  for (const host of ["evil.rebind", "10.0.0.5", "policy.example.com.evil", "localhost.evil"]) {
    assert.equal(allowed(host), false, host);
  }
  assert.equal(hostNameOf("a b"), null);
  assert.equal(hostNameOf("[::1"), null);
  const wildcard = hostAllowList({
    bindHost: "0.0.0.0",
    allowedHosts: [],
    interfaceAddresses: () => ["10.0.0.5"],
  });
  assert.equal(wildcard("10.0.0.5"), true);
  assert.equal(wildcard("10.0.0.6"), false);
  assert.equal(wildcard("evil.rebind"), false);
});

Deno.test("accept errors: descriptor limits and aborted connections are transient, others fatal", () => {
  const withCode = (code: string) => Object.assign(new Error(code), { code });
  for (const code of ["EMFILE", "ENFILE", "ECONNABORTED", "ENOBUFS"]) {
    assert.equal(isTransientAcceptError(withCode(code)), true, code);
  }
  assert.equal(isTransientAcceptError(new Error("Too many open files (os error 24)")), true);
  assert.equal(isTransientAcceptError(new Deno.errors.ConnectionAborted("x")), true);
  assert.equal(isTransientAcceptError(withCode("EINVAL")), false);
  assert.equal(isTransientAcceptError(new Error("something else")), false);
});
