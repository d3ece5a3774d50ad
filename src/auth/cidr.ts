/**
 * CIDR lists for `TRUSTED_PROXIES`: IPv4 and IPv6 blocks, where an
 * IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) counts as the IPv4 address
 * `a.b.c.d`, both in the list and in the peer address being checked.
 * Parsing and matching are delegated to `ipaddr.js`; this module adds the
 * strictness a security setting needs (dotted-quad IPv4 only, no `127.1`).
 *
 * @module
 */
import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** One parsed block. */
export interface Cidr {
  readonly address: Address;
  readonly prefix: number;
}

/** A parsed list of CIDR blocks. */
export interface CidrList {
  /** The blocks in canonical form (`127.0.0.1/32`, `::1/128`). */
  readonly blocks: readonly string[];
  /** True when `address` (an IP literal, optionally `[bracketed]`) lies inside a block. */
  contains(address: string): boolean;
}

/** Unmaps `::ffff:a.b.c.d` (and its prefix) to plain IPv4. */
function unmap(address: Address, prefix: number): Cidr {
  if (address.kind() === "ipv6") {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress() && prefix >= 96) {
      return { address: v6.toIPv4Address(), prefix: prefix - 96 };
    }
  }
  return { address, prefix };
}

function parseAddress(text: string): Address | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (text.includes(":") && ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return undefined;
}

/**
 * Parses one CIDR block; a bare address is a single host (`/32` or `/128`).
 * Throws a `RangeError` that quotes the value.
 *
 * @example
 * ```ts
 * parseCidr("10.0.0.0/8").prefix; // 8
 * parseCidr("::ffff:127.0.0.1").address.toString(); // "127.0.0.1"
 * ```
 */
export function parseCidr(text: string): Cidr {
  const value = text.trim();
  const slash = value.indexOf("/");
  const addressText = slash === -1 ? value : value.slice(0, slash);
  const address = parseAddress(addressText);
  if (!address) {
    throw new RangeError(
      `Cannot parse CIDR "${value}": "${addressText}" is not an IPv4 or IPv6 address`,
    );
  }
  const max = address.kind() === "ipv4" ? 32 : 128;
  if (slash === -1) return unmap(address, max);
  const prefixText = value.slice(slash + 1);
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max)) {
    throw new RangeError(`Cannot parse CIDR "${value}": prefix length must be 0–${max}`);
  }
  return unmap(address, prefix);
}

/** Parses a peer address; undefined when it is not an IP literal. */
function parsePeer(text: string): Address | undefined {
  let value = text.trim();
  if (value.startsWith("[") && value.endsWith("]")) value = value.slice(1, -1);
  const zone = value.indexOf("%");
  if (zone !== -1) value = value.slice(0, zone);
  const address = parseAddress(value);
  if (address?.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (address as ipaddr.IPv6).toIPv4Address();
  }
  return address;
}

/**
 * Parses a comma-separated list of CIDR blocks (empty items are skipped).
 * Throws a `RangeError` naming the first invalid block.
 *
 * @example
 * ```ts
 * const proxies = parseCidrList("127.0.0.1/32, ::1/128");
 * proxies.contains("::ffff:127.0.0.1"); // true
 * proxies.contains("10.0.0.1"); // false
 * ```
 */
export function parseCidrList(text: string): CidrList {
  const cidrs = text.split(",").map((item) => item.trim()).filter((item) => item !== "").map(
    parseCidr,
  );
  return {
    blocks: cidrs.map((c) => `${c.address.toString()}/${c.prefix}`),
    contains(address) {
      const peer = parsePeer(address);
      if (!peer) return false;
      return cidrs.some((c) => c.address.kind() === peer.kind() && peer.match(c.address, c.prefix));
    },
  };
}
