/**
 * The registry YAML check of `policyd check-config`.
 *
 * @module
 */
import { isLive } from "../../../src/core/exceptions.ts";
import { validateRegistry } from "../../../src/registry/schema.ts";
import { parseYaml, toYaml } from "../../../src/registry/yaml.ts";
import { type CheckRow, row } from "./check_row.ts";

/** The YAML parses, validates, and survives a serialise → parse → validate round trip unchanged. */
export async function registryYamlCheck(
  path: string,
  now: Date = new Date(),
): Promise<CheckRow> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return row("registry_yaml", "warn", `skipped: ${path} does not exist`, "");
    }
    return row(
      "registry_yaml",
      "fail",
      `cannot read ${path}: ${(error as Error).message}`,
      "check permissions",
    );
  }
  const first = parseYaml(text);
  const validated = first.ok ? validateRegistry(first.value) : first;
  if (!validated.ok) {
    const errors = validated.errors.slice(0, 3).map((e) => `${e.path}: ${e.message}`).join("; ");
    const more = validated.errors.length > 3 ? ` (+${validated.errors.length - 3} more)` : "";
    return row(
      "registry_yaml",
      "fail",
      `${path} is invalid: ${errors}${more}`,
      `policyd registry compile ${path} /tmp/registry.json lists every error`,
    );
  }
  const again = parseYaml(toYaml(validated.value));
  const revalidated = again.ok ? validateRegistry(again.value) : again;
  if (!revalidated.ok || JSON.stringify(revalidated.value) !== JSON.stringify(validated.value)) {
    return row(
      "registry_yaml",
      "fail",
      `${path} does not round-trip through the validator`,
      "report this as a bug",
    );
  }
  const doc = validated.value;
  const summary = `${path} is valid (${doc.packages.length} packages${
    doc.version ? `, version ${doc.version}` : ""
  })`;
  const expired = doc.exceptions.filter((e) => !isLive(e, now));
  if (expired.length) {
    const list = expired.map((e) => `${e.package} (expired ${e.expires})`).join(", ");
    return row(
      "registry_yaml",
      "warn",
      `${summary}; ${expired.length} exception(s) expired and ignored: ${list}`,
      "renew the expiry date or remove the exception",
    );
  }
  return row("registry_yaml", "ok", summary);
}
