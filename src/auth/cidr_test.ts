import { deepStrictEqual, equal, throws } from "node:assert/strict";
import { parseCidr, parseCidrList } from "./cidr.ts";

Deno.test("parseCidrList() matches IPv4 and IPv6 peers against their own blocks", async (t) => {
  const list = parseCidrList("127.0.0.1/32, 10.0.0.0/8,::1/128 , fd00::/8");
  const cases: Array<[string, boolean]> = [
    ["127.0.0.1", true],
    ["127.0.0.2", false],
    ["10.200.3.4", true],
    ["11.0.0.1", false],
    ["::1", true],
    ["[::1]", true],
    ["::2", false],
    ["fd12:3456::9", true],
    ["fe80::1%eth0", false],
    ["not-an-ip", false],
    ["", false],
    ["127.1", false],
  ];
  for (const [address, expected] of cases) {
    await t.step(
      `${address || "(empty)"} → ${expected}`,
      () => equal(list.contains(address), expected),
    );
  }
});

Deno.test("parseCidrList() counts ::ffff:a.b.c.d as a.b.c.d, in the list and in the peer", () => {
  const v4 = parseCidrList("127.0.0.1/32");
  equal(v4.contains("::ffff:127.0.0.1"), true);
  equal(v4.contains("::ffff:7f00:1"), true);
  equal(v4.contains("::ffff:127.0.0.2"), false);
  const mapped = parseCidrList("::ffff:192.168.0.0/112");
  deepStrictEqual(mapped.blocks, ["192.168.0.0/16"]);
  equal(mapped.contains("192.168.44.1"), true);
  equal(mapped.contains("::ffff:192.168.44.1"), true);
});

Deno.test("parseCidrList() keeps the IPv4 and IPv6 families apart", () => {
  equal(parseCidrList("::/0").contains("127.0.0.1"), false);
  equal(parseCidrList("0.0.0.0/0").contains("::1"), false);
  equal(parseCidrList("0.0.0.0/0,::/0").contains("2001:db8::1"), true);
});

Deno.test("parseCidr() treats a bare address as one host and canonicalises blocks", () => {
  deepStrictEqual(parseCidrList("192.0.2.7, 2001:DB8::1").blocks, [
    "192.0.2.7/32",
    "2001:db8::1/128",
  ]);
  equal(parseCidr("10.1.2.3/8").prefix, 8);
  equal(parseCidrList("10.1.2.3/8").contains("10.9.9.9"), true);
  deepStrictEqual(parseCidrList(" , ").blocks, []);
});

Deno.test("parseCidr() rejects malformed blocks with a message quoting the value", async (t) => {
  for (
    const bad of [
      "127.1/32",
      "10.0.0.0/33",
      "::1/129",
      "10.0.0.0/",
      "10.0.0.0/-1",
      "10.0.0.0/8/1",
      "localhost",
      "1.2.3.4.5",
      "0x7f.0.0.1/32",
    ]
  ) {
    await t.step(
      bad,
      () =>
        throws(
          () => parseCidr(bad),
          (e: Error) => e instanceof RangeError && e.message.includes(`"${bad}"`),
        ),
    );
  }
});
