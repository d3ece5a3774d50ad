import assert from "node:assert/strict";
import { signBody, verifySignature } from "./webhook.ts";

const SECRET = "It's a Secret to Everybody";
const PAYLOAD = new TextEncoder().encode("Hello, World!");
const EXPECTED = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

Deno.test("signBody() reproduces GitHub's documented example", async () => {
  assert.equal(await signBody(SECRET, PAYLOAD), EXPECTED);
});

Deno.test("verifySignature() accepts GitHub's documented example", async () => {
  assert.equal(await verifySignature(SECRET, PAYLOAD, EXPECTED), true);
  assert.equal(
    await verifySignature(SECRET, PAYLOAD, EXPECTED.toUpperCase().replace("SHA256", "sha256")),
    true,
  );
});

Deno.test("verifySignature() rejects a one-byte change of the body, the signature or the secret", async () => {
  const changed = new TextEncoder().encode("Hello, World?");
  assert.equal(await verifySignature(SECRET, changed, EXPECTED), false);
  const lastHex = EXPECTED.endsWith("7") ? "8" : "7";
  assert.equal(await verifySignature(SECRET, PAYLOAD, EXPECTED.slice(0, -1) + lastHex), false);
  assert.equal(await verifySignature(SECRET + "!", PAYLOAD, EXPECTED), false);
});

Deno.test("verifySignature() rejects missing and malformed headers", async (t) => {
  for (
    const header of [
      null,
      undefined,
      "",
      "sha256=",
      "sha1=757107ea",
      EXPECTED.slice(7),
      `${EXPECTED}00`,
    ]
  ) {
    await t.step(String(header), async () => {
      assert.equal(await verifySignature(SECRET, PAYLOAD, header), false);
    });
  }
});
