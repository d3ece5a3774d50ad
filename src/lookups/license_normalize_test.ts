import { equal } from "node:assert/strict";
import parseSpdx from "spdx-expression-parse";
import { canonicalSpdx, normalizeLicense, normalizeShortLicense } from "./license_normalize.ts";
import { CLASSIFIER_ALIASES, SHORT_NAME_ALIASES } from "./license_aliases.ts";

const MIT = "License :: OSI Approved :: MIT License";
const BSD = "License :: OSI Approved :: BSD License";
const GPL = "License :: OSI Approved :: GNU General Public License (GPL)";

Deno.test("every alias table target is a valid SPDX expression in canonical form", () => {
  for (const alias of [...CLASSIFIER_ALIASES.values(), ...SHORT_NAME_ALIASES.values()]) {
    parseSpdx(alias.spdx); // throws on an invalid id
    equal(canonicalSpdx(alias.spdx), alias.spdx);
  }
});

Deno.test("normalizeLicense() prefers license_expression (PEP 639)", () => {
  equal(
    JSON.stringify(normalizeLicense({
      license_expression: "MIT OR Apache-2.0",
      classifiers: [GPL],
      license: "GPL",
    })),
    JSON.stringify({ license: "MIT OR Apache-2.0", license_raw: "MIT OR Apache-2.0" }),
  );
});

Deno.test("normalizeLicense() falls back to classifiers when license_expression is invalid", () => {
  const result = normalizeLicense({ license_expression: "not spdx", classifiers: [MIT] });
  equal(result.license, "MIT");
  equal(result.license_raw, MIT);
});

Deno.test("bare GPL and the GPL classifier map to GPL-2.0-or-later (SPEC §15.11)", () => {
  equal(normalizeLicense({ license: "GPL", classifiers: [] }).license, "GPL-2.0-or-later");
  equal(normalizeLicense({ license: "", classifiers: [GPL] }).license, "GPL-2.0-or-later");
});

Deno.test("a specific member of an ambiguous classifier's family wins over the default variant", () => {
  const result = normalizeLicense({ license: "BSD 2-Clause", classifiers: [BSD] });
  equal(result.license, "BSD-2-Clause");
  equal(result.license_raw, "BSD 2-Clause");
  // An unambiguous classifier is kept even if the license field disagrees.
  equal(normalizeLicense({ license: "Apache 2.0", classifiers: [MIT] }).license, "MIT");
});

Deno.test("several different license classifiers are not combined (PEP 639)", () => {
  const result = normalizeLicense({ license: "", classifiers: [MIT, GPL] });
  equal(result.license, "UNKNOWN");
  equal(result.license_raw, null);
  // ... but a parent classifier is dropped, and duplicates agree.
  equal(normalizeLicense({ classifiers: ["License :: OSI Approved", MIT] }).license, "MIT");
  equal(normalizeLicense({ classifiers: [MIT, MIT] }).license, "MIT");
});

Deno.test("normalizeShortLicense() handles names, SPDX in any case, and compounds", async (t) => {
  const table: Array<[string, string | null]> = [
    ["MIT license", "MIT"],
    ["The MIT License (MIT)", "MIT"],
    ["Apache License, Version 2.0", "Apache-2.0"],
    ["apache-2.0", "Apache-2.0"],
    ["apache-2.0 or mit", "Apache-2.0 OR MIT"],
    ["GPL-2.0+", "GPL-2.0-or-later"],
    ["GPL-3.0", "GPL-3.0-only"],
    ["MIT or Apache 2.0", "MIT OR Apache-2.0"],
    ["MIT and GPLv3+", "MIT AND GPL-3.0-or-later"],
    ["BSD", "BSD-3-Clause"],
    ["Simplified BSD", "BSD-2-Clause"],
    ["LGPL", "LGPL-2.0-or-later"],
    ["Mozilla Public License 2.0 (MPL 2.0)", "MPL-2.0"], // spdx-correct, version checked
    ["Eclipse Public License 2.0", null], // spdx-correct guesses EPL-1.0: rejected
    ["LGPL with exceptions", null], // spdx-correct guesses LGPL-3.0-or-later: rejected
    ["BSD-like", null], // spdx-correct guesses BSD-2-Clause: rejected
    ["Dual License", null],
    ["(MIT OR Apache-2.0) AND BSD-3-Clause", "(MIT OR Apache-2.0) AND BSD-3-Clause"],
  ];
  for (const [text, expected] of table) {
    await t.step(JSON.stringify(text), () => equal(normalizeShortLicense(text), expected));
  }
});

Deno.test("normalizeLicense() recognises a full license text", () => {
  const mitText = "Copyright (c) 2020 Someone\n\nPermission is hereby granted, free of charge, " +
    "to any person obtaining a copy of this software...";
  equal(normalizeLicense({ license: mitText }).license, "MIT");
  equal(normalizeLicense({ license: mitText }).license_raw, mitText);
  const apache = "                                 Apache License\n" +
    "                           Version 2.0, January 2004\n  http://www.apache.org/licenses/";
  equal(normalizeLicense({ license: apache }).license, "Apache-2.0");
  equal(
    normalizeLicense({ license: "Some custom license\nAll rights reserved." }).license,
    "UNKNOWN",
  );
});

Deno.test("normalizeLicense() keeps the raw text of a license it cannot normalise", () => {
  const result = normalizeLicense({ license: "LGPL with exceptions or ZPL", classifiers: [] });
  equal(result.license, "UNKNOWN");
  equal(result.license_raw, "LGPL with exceptions or ZPL");
  equal(normalizeLicense({ license: "UNKNOWN", classifiers: [] }).license_raw, null);
  equal(normalizeLicense({}).license_raw, null);
});
