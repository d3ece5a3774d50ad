/**
 * DNS-rebinding defence (issue 34, SPEC §17.7): a request whose `Host` is
 * not a loopback name or address, the bind address (or, bound to every
 * interface, one of this machine's addresses) or an entry of `ALLOWED_HOSTS`
 * is refused with 421 before anything else runs, in every mode. A web page
 * on `evil.example` that rebinds its name to 127.0.0.1 still sends
 * `Host: evil.example`, so it reaches nothing. The same allow-list decides
 * which `Origin` counts as the server's own (`same_origin.ts`).
 *
 * @module
 */
import ipaddr from "ipaddr.js";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../deps.ts";
import { ProblemError } from "../problem.ts";

/** What decides the allowed hosts. */
export interface AllowedHostsOptions {
  /** The bind address (`POLICY_HOST`). */
  bindHost: string;
  /** `ALLOWED_HOSTS`: further names, lower case, without port. */
  allowedHosts: readonly string[];
  /** This machine's addresses (when bound to every interface); injectable for tests. */
  interfaceAddresses?: () => string[];
}

/** The host name of a `Host` header value (`[::1]:8765` → `::1`), lower case, or null. */
export function hostNameOf(host: string): string | null {
  const value = host.trim().toLowerCase();
  if (value === "") return null;
  if (value.startsWith("[")) {
    const end = value.indexOf("]");
    if (end < 0) return null;
    const rest = value.slice(end + 1);
    if (rest !== "" && !/^:\d{1,5}$/.test(rest)) return null;
    return value.slice(1, end);
  }
  const match = /^([^:/@\s]+)(:\d{1,5})?$/.exec(value);
  return match ? match[1].replace(/\.$/, "") : null;
}

function ipOf(name: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!ipaddr.isValid(name)) return null;
  const parsed = ipaddr.parse(name);
  return parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed;
}

function systemAddresses(): string[] {
  try {
    return Deno.networkInterfaces().map((i) => i.address);
  } catch {
    return []; // no permission to list them: loopback and ALLOWED_HOSTS still count
  }
}

const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

/**
 * Builds the predicate "may a request name this host". Loopback: `localhost`
 * and `*.localhost` (RFC 6761, resolved locally by browsers), 127.0.0.0/8 and
 * `::1`.
 */
export function hostAllowList(options: AllowedHostsOptions): (hostname: string) => boolean {
  const names = new Set(options.allowedHosts.map((h) => h.replace(/^\[|\]$/g, "")));
  const bind = options.bindHost.trim().toLowerCase().replace(/^\[|\]$/g, "");
  names.add(bind);
  const wildcard = WILDCARDS.has(bind);
  let machine: Set<string> | null = null;
  const addresses = new Set<string>();
  for (const name of names) {
    const ip = ipOf(name);
    if (ip) addresses.add(ip.toNormalizedString());
  }
  // Clients send the same few names: remember the answers (bounded), so a
  // request pays a map lookup, not an address parse (docs/performance.md).
  const decide = (hostname: string): boolean => {
    const name = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
    if (name === "localhost" || name.endsWith(".localhost")) return true;
    if (names.has(name)) return true;
    const ip = ipOf(name);
    if (!ip) return false;
    if (ip.range() === "loopback") return true;
    const normal = ip.toNormalizedString();
    if (addresses.has(normal)) return true;
    if (!wildcard) return false;
    machine ??= new Set(
      (options.interfaceAddresses ?? systemAddresses)().flatMap((a) => {
        const parsed = ipOf(a);
        return parsed ? [parsed.toNormalizedString()] : [];
      }),
    );
    return machine.has(normal);
  };
  return remembered(decide);
}

/** `decide` with its answers remembered per argument (bounded: cleared past 1,024). */
function remembered(decide: (key: string) => boolean): (key: string) => boolean {
  const answers = new Map<string, boolean>();
  return (key) => {
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = decide(key);
      if (answers.size >= 1024) answers.clear();
      answers.set(key, answer);
    }
    return answer;
  };
}

/** The `Host` a request names (the header, else its URL's, as in-process requests have). */
export function requestHost(request: Request): string {
  return request.headers.get("host") ?? new URL(request.url).host;
}

/**
 * Whether a `Host` header value names an allowed host, remembered per value
 * as sent: a request pays one map lookup, not a parse.
 */
export function hostHeaderCheck(allowed: (hostname: string) => boolean): (host: string) => boolean {
  return remembered((host) => {
    const name = hostNameOf(host);
    return name !== null && allowed(name);
  });
}

/**
 * The middleware: 421 problem+json for a request whose `Host` is not allowed.
 *
 * @example
 * ```ts ignore
 * app.use("*", allowedHosts(hostAllowList({ bindHost: "127.0.0.1", allowedHosts: [] })));
 * ```
 */
export function allowedHosts(allowed: (hostname: string) => boolean): MiddlewareHandler<AppEnv> {
  const decide = hostHeaderCheck(allowed);
  return async (c, next) => {
    const host = requestHost(c.req.raw);
    if (!decide(host)) {
      throw new ProblemError(
        421,
        "misdirected-request",
        `this server does not answer to Host "${host.slice(0, 100)}"; ` +
          "an operator can add the name to ALLOWED_HOSTS",
        {},
        { connection: "close" },
      );
    }
    await next();
  };
}
