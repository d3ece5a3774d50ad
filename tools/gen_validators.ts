/**
 * Generates `cli/policy/generated/validators.js` (and its `.d.ts`) from the
 * client's zod schemas (`deno task schema`): `z.toJSONSchema()`, then ajv's
 * standalone code. `policy check`, `hook` and `precommit` validate with it
 * instead of loading zod, which alone costs more than the client's whole
 * start-up budget (docs/performance.md, "Client start-up"). A test fails when
 * the committed files are stale.
 *
 * The translation is exact or conservative, never looser: whatever the
 * generated code accepts, zod accepts with the same output, and whatever it
 * rejects goes to zod, which words the error (`cli/policy/validate.ts`).
 * Anything zod can check that this file cannot translate (refinements,
 * transforms, unknown formats) fails the generation.
 *
 * @module
 */

import { z } from "zod";
import { _, Ajv } from "ajv";
// CommonJS: under Deno the default import is module.exports, whose `default` is the function.
import standalone from "ajv/dist/standalone/index.js";
import { BatchSchema, EvaluationSchema } from "../cli/policy/evaluation_schema.ts";
import { ConfigFileSchema } from "../cli/policy/config_schema.ts";
import { PayloadSchema } from "../cli/policy/agents/payload_schema.ts";

/** The schemas compiled, by exported name. */
export const GENERATED_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  evaluation: EvaluationSchema,
  batch: BatchSchema,
  configFile: ConfigFileSchema,
  hookPayload: PayloadSchema,
};

/** Where the module re-exporting every validator is committed. */
export const GENERATED_JS = new URL("../cli/policy/generated/validators.js", import.meta.url);
/** Its type declarations. */
export const GENERATED_DTS = new URL("../cli/policy/generated/validators.d.ts", import.meta.url);

/**
 * The module of one validator (`evaluation` → `generated/evaluation.js`,
 * `configFile` → `generated/config_file.js`): each command loads only the
 * validators it uses (docs/performance.md, "Pre-commit, fourth pass").
 */
export function validatorModule(name: string): URL {
  const file = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return new URL(`../cli/policy/generated/${file}.js`, import.meta.url);
}

/** zod schema kinds whose JSON Schema is exact. */
const TYPES = new Set([
  "object",
  "string",
  "number",
  "boolean",
  "null",
  "array",
  "enum",
  "literal",
  "nullable",
  "optional",
  "nonoptional",
  "default",
  "union",
  "unknown",
]);

/** zod checks with an exact JSON Schema keyword (string formats: below). */
const CHECKS = new Set(["min_length", "max_length", "length_equals", "greater_than", "less_than"]);

type Def = Record<string, unknown> & { type: string; checks?: { _zod: { def: Def } }[] };

/**
 * The source of a conservative ajv format for `z.url(def)`: the same parse,
 * protocol and hostname tests as zod, but no surrounding whitespace and an
 * explicit `scheme://`, where zod would trim or accept more.
 */
function urlFormat(def: Def): string {
  if (def.normalize) throw new Error("z.url({ normalize }) changes the value: not generated");
  const tests = ["!/\\s/.test(s)", "/^[A-Za-z][A-Za-z0-9+.-]*:\\/\\//.test(s)"];
  const url = ["u !== null"];
  for (
    const [key, value] of [["protocol", "u.protocol.slice(0, -1)"], ["hostname", "u.hostname"]]
  ) {
    const r = def[key];
    if (r === undefined) continue;
    if (!(r instanceof RegExp) || /[gy]/.test(r.flags)) throw new Error(`unsupported ${key} ${r}`);
    url.push(`${r}.test(${value})`);
  }
  return `(s) => ${tests.join(" && ")} && ((u) => ${url.join(" && ")})(URL.parse(s))`;
}

/** JSON Schema of `schema`, with zod's object key policies and URL formats made explicit. */
function jsonSchemaOf(schema: z.ZodType, formats: Map<string, string>): Record<string, unknown> {
  return z.toJSONSchema(schema, {
    target: "draft-7",
    io: "input",
    override(ctx) {
      const def = (ctx.zodSchema as unknown as { _zod: { def: Def } })._zod.def;
      const json = ctx.jsonSchema as Record<string, unknown>;
      if (!TYPES.has(def.type)) throw new Error(`zod type ${def.type} is not generated`);
      const checks = [...(def.checks ?? []).map((c) => c._zod.def), ...(def.check ? [def] : [])];
      for (const check of checks) {
        const kind = `${check.check}${check.format ? `:${check.format}` : ""}`;
        if (CHECKS.has(kind) || kind === "number_format:safeint") continue;
        if (kind === "string_format:regex" && !(check.pattern as RegExp).flags) continue;
        if (kind === "string_format:url") {
          const source = urlFormat(check);
          const name = `url${formats.size}`;
          formats.set(name, source);
          json.format = name;
          continue;
        }
        throw new Error(`zod check ${kind} is not generated`);
      }
      if (def.type === "object") {
        const catchall = (def.catchall as { _zod: { def: Def } } | undefined)?._zod.def.type;
        if (catchall === undefined) {
          json.additionalProperties = false; // zod strips unknown keys: removeAdditional
        } else if (catchall === "never") {
          delete json.additionalProperties; // strict: reject unknown keys, not strip them
          json.propertyNames = { enum: Object.keys(def.shape as object) };
        } else if (catchall !== "unknown") {
          throw new Error(`object catchall ${catchall} is not generated`);
        }
      }
    },
  }) as Record<string, unknown>;
}

/**
 * ajv's module with each `function validateN(…){…}` declaration turned into
 * `const validateN = (function validateN(…){…});` and the exports moved to
 * the end. V8 compiles a parenthesised function eagerly, so its code lands in
 * Deno's V8 code cache; a plain declaration is compiled on its first call, on
 * every run (about 1 ms for the evaluation validator).
 */
function eagerFunctions(code: string, count: number): string {
  const exports = code.match(/^export const \w+ = validate\d+;$/gm) ?? [];
  let rest = code.replace(/^export const \w+ = validate\d+;\n/gm, "");
  const out: string[] = [];
  const end = "\nreturn errors === 0;\n}";
  for (let start; (start = rest.search(/^function validate\d+\(/m)) >= 0;) {
    const stop = rest.indexOf(end, start);
    if (stop < 0) throw new Error("unexpected ajv output: no end of a validate function");
    const name = /^function (validate\d+)/.exec(rest.slice(start))![1];
    out.push(rest.slice(0, start), `const ${name} = (${rest.slice(start, stop + end.length)});`);
    rest = rest.slice(stop + end.length);
  }
  if (exports.length !== count) {
    throw new Error("unexpected ajv output: exports not found");
  }
  return `${out.join("")}${rest.trimEnd()}\n${exports.join("\n")}`;
}

const HEADER = [
  "// Generated by `deno task schema` (tools/gen_validators.ts) from the zod schemas in",
  "// cli/policy/evaluation_schema.ts, config_schema.ts and agents/payload_schema.ts. Do not edit.",
];

/** One validator's standalone module: ajv's code for the schema `name` alone. */
function validatorFile(name: string, schema: z.ZodType): { js: string; dts: string } {
  const formats = new Map<string, string>();
  const json = jsonSchemaOf(schema, formats);
  const ajv = new Ajv({
    code: { source: true, esm: true, formats: _`formats`, lines: true },
    useDefaults: true, // zod's .default()
    removeAdditional: true, // zod's stripping of unknown keys (additionalProperties: false above)
    unicode: false, // zod's lengths are String#length, not code points
    unicodeRegExp: false, // zod tests its RegExp as written, without the u flag
    allowUnionTypes: true,
    messages: false, // zod words the errors
    logger: { log() {}, warn() {}, error: console.error }, // "unicode" is deprecated, and meant
  });
  for (const [format, source] of formats) {
    ajv.addFormat(format, new Function(`return ${source}`)());
  }
  ajv.addSchema(json, name);
  const code = standalone.default(ajv, { [name]: name });
  if (/\brequire\(|\bimport\b/.test(code)) throw new Error("generated code imports a module");
  const body = eagerFunctions(code.replace(/^"use strict";\n?/, ""), 1);
  const formatTable = [...formats].map(([format, source]) => `  ${format}: ${source},`).join("\n");
  const js = [
    ...HEADER,
    "// deno-lint-ignore-file",
    `// @ts-self-types="./${
      validatorModule(name).pathname.split("/").pop()!.replace(/js$/, "d.ts")
    }"`,
    ...(formats.size ? [`const formats = {\n${formatTable}\n};`] : []),
    body,
  ].join("\n");
  const dts = [
    "// Generated by `deno task schema` (tools/gen_validators.ts). Do not edit.",
    "",
    // Self-contained (no import of validators.d.ts): loading one validator names no other module.
    `/** Generated from the zod schema \`${name}\` (tools/gen_validators.ts): true when valid. */`,
    `export declare const ${name}: (data: unknown) => boolean;`,
    "",
  ].join("\n");
  return { js: js.endsWith("\n") ? js : js + "\n", dts };
}

/** Every generated file and its text, as committed: one module per validator, and the index. */
export function generatedValidators(): Map<URL, string> {
  const files = new Map<URL, string>();
  const names = Object.keys(GENERATED_SCHEMAS);
  for (const name of names) {
    const { js, dts } = validatorFile(name, GENERATED_SCHEMAS[name]);
    const url = validatorModule(name);
    files.set(url, js);
    files.set(new URL(url.href.replace(/\.js$/, ".d.ts")), dts);
  }
  const module = (name: string) => `./${validatorModule(name).pathname.split("/").pop()}`;
  files.set(
    GENERATED_JS,
    [
      ...HEADER,
      '// @ts-self-types="./validators.d.ts"',
      ...names.map((name) => `export { ${name} } from "${module(name)}";`),
      "",
    ].join("\n"),
  );
  files.set(
    GENERATED_DTS,
    [
      "// Generated by `deno task schema` (tools/gen_validators.ts). Do not edit.",
      "",
      "/** An ajv standalone validator: true when valid; fills defaults and strips unknown keys as zod does. */",
      "export interface GeneratedValidator {",
      "  (data: unknown): boolean;",
      "}",
      "",
      ...names.flatMap((name) => [
        `/** Generated from the zod schema \`${name}\` (tools/gen_validators.ts). */`,
        `export { ${name} } from "${module(name).replace(/js$/, "d.ts")}";`,
      ]),
      "",
    ].join("\n"),
  );
  return files;
}

if (import.meta.main) {
  const files = generatedValidators();
  await Deno.mkdir(new URL(".", GENERATED_JS), { recursive: true });
  for (const [url, text] of files) await Deno.writeTextFile(url, text);
  console.log(`wrote ${[...files.keys()].map((u) => u.pathname).join(", ")}`);
}
