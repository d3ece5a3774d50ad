import assert from "node:assert/strict";
import { parse } from "smol-toml";
import { parseFlatToml } from "./flat_toml.ts";
import { configText } from "./commands/init.ts";

/** Texts in the flat subset: parseFlatToml() must read each exactly as smol-toml does. */
const FLAT = [
  "",
  "\n\n",
  configText("shop", "http://127.0.0.1:8765", "single-user"),
  configText("shop", "https://policy.example.com", "org"),
  'project = "shop"\r\nserver_url = "http://h:1"\r\n',
  "  project='lit\"eral'   # trailing comment\n\t# indented comment\n",
  "fail_open = false\nauto_request_approval = true\n",
  "timeout_seconds = 2.5\nn = -3\np = +7\nz = 0\nf = 0.25\n",
  'key-with_dash = "x"\n9 = "numeric bare key"\n',
  'url = "http://h/#fragment" # comment with "quotes" = and #\n',
  'unicode = "café ✓"\n',
];

/** Texts outside it: parseFlatToml() must return null and leave them to smol-toml. */
const NOT_FLAT = [
  "[tool]\nx = 1\n",
  'a.b = "dotted"\n',
  '"quoted" = 1\n',
  'escaped = "a\\"b"\n',
  'multi = """x"""\n',
  "list = [1, 2]\n",
  "inline = { a = 1 }\n",
  "date = 2026-11-24\n",
  "big = 1_000\n",
  "exp = 1e3\n",
  "octal = 0o7\n",
  "leading = 01\n",
  "inf = inf\n",
  'dup = "a"\ndup = "b"\n',
  "__proto__ = 1\n",
  "novalue =\n",
  'tab = "a\tb"\n',
  "server_url = \n",
  "just words\n",
];

Deno.test("parseFlatToml() reads the flat subset exactly as smol-toml does", async (t) => {
  for (const text of FLAT) {
    await t.step(JSON.stringify(text).slice(0, 60), () => {
      const flat = parseFlatToml(text);
      assert.ok(flat !== null, "expected the flat reader to take it");
      assert.deepEqual({ ...flat }, { ...parse(text) });
    });
  }
});

Deno.test("parseFlatToml() returns null for everything else (smol-toml reads or rejects it)", async (t) => {
  for (const text of NOT_FLAT) {
    await t.step(JSON.stringify(text), () => assert.equal(parseFlatToml(text), null));
  }
});
