import assert from "node:assert/strict";
import { normalizeName } from "../core/names.ts";
import { isNormalName } from "./index_fast_path.ts";

function* names(alphabet: string[], length: number): Generator<string> {
  if (length === 0) {
    yield "";
    return;
  }
  for (const c of alphabet) for (const rest of names(alphabet, length - 1)) yield c + rest;
}

Deno.test("isNormalName agrees with normalizeName on every short name of the path's alphabet", () => {
  let checked = 0;
  for (let length = 1; length <= 5; length++) {
    for (const name of names(["a", "B", "1", "-", "_", "."], length)) {
      assert.equal(isNormalName(name), normalizeName(name) === name, JSON.stringify(name));
      checked++;
    }
  }
  assert.equal(checked, 9330);
});
