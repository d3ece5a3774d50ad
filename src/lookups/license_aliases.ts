/**
 * The curated license alias table (SPEC §6.3, §15.11): `License ::` trove
 * classifiers and the short names Python projects put in `info.license`,
 * mapped to SPDX. Reference: PEP 639, "Appendix: Mapping License Classifiers
 * to SPDX Identifiers". Every decision taken where PEP 639 calls a name
 * ambiguous is written next to the entry and in docs/lookups.md.
 *
 * Rule for ambiguous GNU family names: the lowest version the name allows,
 * `-or-later` when the name gives no version or says "or later" / "+", `-only`
 * when it names a version without "or later" (so bare "GPL" and the
 * "GNU General Public License (GPL)" classifier are `GPL-2.0-or-later`).
 *
 * @module
 */

/** One table entry: the SPDX expression and, for ambiguous family names, the family. */
export interface LicenseAlias {
  spdx: string;
  /**
   * Set for names PEP 639 calls ambiguous: the SPDX id prefix of the family.
   * A more specific member of the same family found in `info.license` wins
   * over the documented default variant.
   */
  family?: string;
}

const ambiguous = (spdx: string, family: string): LicenseAlias => ({ spdx, family });
const exact = (spdx: string): LicenseAlias => ({ spdx });

/**
 * Classifiers keyed by their last `::` segment, lowercased. The generic
 * `OSI Approved` and `DFSG approved` are ignored (PEP 639); `Other/Proprietary`
 * and the `Free for … use` / `Freeware` classifiers are treated as ambiguous,
 * which PEP 639 allows, so they yield UNKNOWN and follow `unknown_license_policy`.
 */
export const CLASSIFIER_ALIASES: ReadonlyMap<string, LicenseAlias> = new Map([
  ["aladdin free public license (afpl)", exact("Aladdin")],
  ["cc0 1.0 universal (cc0 1.0) public domain dedication", exact("CC0-1.0")],
  ["cecill-b free software license agreement (cecill-b)", exact("CECILL-B")],
  ["cecill-c free software license agreement (cecill-c)", exact("CECILL-C")],
  ["eiffel forum license (efl)", exact("EFL-2.0")],
  ["netscape public license (npl)", exact("NPL-1.1")],
  ["nokia open source license (nokos)", exact("Nokia")],
  // PEP 639 ambiguous: AFL 1.1–3.0; the current version is the documented variant.
  ["academic free license (afl)", ambiguous("AFL-3.0", "AFL-")],
  // PEP 639 ambiguous: Apache 1.0/1.1/2.0; Python projects using it are Apache-2.0 in practice.
  ["apache software license", ambiguous("Apache-2.0", "Apache-")],
  ["apple public source license", ambiguous("APSL-2.0", "APSL-")],
  ["artistic license", ambiguous("Artistic-2.0", "Artistic-")],
  ["attribution assurance license", exact("AAL")],
  // PEP 639 ambiguous: 2- or 3-clause; the 3-clause "New BSD" is the common Python choice.
  ["bsd license", ambiguous("BSD-3-Clause", "BSD-")],
  ["blue oak model license (blueoak-1.0.0)", exact("BlueOak-1.0.0")],
  ["boost software license 1.0 (bsl-1.0)", exact("BSL-1.0")],
  ["cea cnrs inria logiciel libre license, version 2.1 (cecill-2.1)", exact("CECILL-2.1")],
  ["cmu license (mit-cmu)", exact("MIT-CMU")],
  ["common development and distribution license 1.0 (cddl-1.0)", exact("CDDL-1.0")],
  ["common public license", exact("CPL-1.0")],
  ["eclipse public license 1.0 (epl-1.0)", exact("EPL-1.0")],
  ["eclipse public license 2.0 (epl-2.0)", exact("EPL-2.0")],
  ["educational community license, version 2.0 (ecl-2.0)", exact("ECL-2.0")],
  ["eiffel forum license", exact("EFL-2.0")],
  ["european union public licence 1.0 (eupl 1.0)", exact("EUPL-1.0")],
  ["european union public licence 1.1 (eupl 1.1)", exact("EUPL-1.1")],
  ["european union public licence 1.2 (eupl 1.2)", exact("EUPL-1.2")],
  // PEP 639 ambiguous (only / or later): the "or later" classifier exists separately.
  ["gnu affero general public license v3", ambiguous("AGPL-3.0-only", "AGPL-")],
  ["gnu affero general public license v3 or later (agplv3+)", exact("AGPL-3.0-or-later")],
  ["gnu free documentation license (fdl)", ambiguous("GFDL-1.1-or-later", "GFDL-")],
  // SPEC §15.11.
  ["gnu general public license (gpl)", ambiguous("GPL-2.0-or-later", "GPL-")],
  ["gnu general public license v2 (gplv2)", ambiguous("GPL-2.0-only", "GPL-2.0")],
  ["gnu general public license v2 or later (gplv2+)", exact("GPL-2.0-or-later")],
  ["gnu general public license v3 (gplv3)", ambiguous("GPL-3.0-only", "GPL-3.0")],
  ["gnu general public license v3 or later (gplv3+)", exact("GPL-3.0-or-later")],
  // LGPLv2 may mean 2.0 or 2.1: the lowest, per the family rule above.
  ["gnu lesser general public license v2 (lgplv2)", ambiguous("LGPL-2.0-only", "LGPL-2.")],
  [
    "gnu lesser general public license v2 or later (lgplv2+)",
    ambiguous("LGPL-2.0-or-later", "LGPL-2."),
  ],
  ["gnu lesser general public license v3 (lgplv3)", ambiguous("LGPL-3.0-only", "LGPL-3.0")],
  ["gnu lesser general public license v3 or later (lgplv3+)", exact("LGPL-3.0-or-later")],
  [
    "gnu library or lesser general public license (lgpl)",
    ambiguous("LGPL-2.0-or-later", "LGPL-"),
  ],
  ["historical permission notice and disclaimer (hpnd)", exact("HPND")],
  ["ibm public license", exact("IPL-1.0")],
  ["isc license (iscl)", exact("ISC")],
  ["intel open source license", exact("Intel")],
  ["mit license", exact("MIT")],
  ["mit no attribution license (mit-0)", exact("MIT-0")],
  ["miros license (miros)", exact("MirOS")],
  ["motosoto license", exact("Motosoto")],
  ["mozilla public license 1.0 (mpl)", exact("MPL-1.0")],
  ["mozilla public license 1.1 (mpl 1.1)", exact("MPL-1.1")],
  ["mozilla public license 2.0 (mpl 2.0)", exact("MPL-2.0")],
  ["mulan permissive software license v2 (mulanpsl-2.0)", exact("MulanPSL-2.0")],
  ["nethack general public license", exact("NGPL")],
  ["nokia open source license", exact("Nokia")],
  ["open group test suite license", exact("OGTSL")],
  ["open software license 3.0 (osl-3.0)", exact("OSL-3.0")],
  ["postgresql license", exact("PostgreSQL")],
  ["python license (cnri python license)", exact("CNRI-Python")],
  ["python software foundation license", exact("PSF-2.0")],
  ["qt public license (qpl)", exact("QPL-1.0")],
  ["ricoh source code public license", exact("RSCPL")],
  ["sil open font license 1.1 (ofl-1.1)", exact("OFL-1.1")],
  ["sleepycat license", exact("Sleepycat")],
  ["sun industry standards source license (sissl)", exact("SISSL")],
  ["sun public license", exact("SPL-1.0")],
  ["the unlicense (unlicense)", exact("Unlicense")],
  ["universal permissive license (upl)", exact("UPL-1.0")],
  ["university of illinois/ncsa open source license", exact("NCSA")],
  ["vovida software license 1.0", exact("VSL-1.0")],
  ["w3c license", exact("W3C")],
  ["x.net license", exact("Xnet")],
  // PEP 639 lists ZPL among 1:1 mappings by version-less name; ZPL 2.1 is the current version.
  ["zope public license", ambiguous("ZPL-2.1", "ZPL-")],
  ["zlib/libpng license", exact("Zlib")],
  // PEP 639 canonical mapping (MAY).
  ["public domain", exact("LicenseRef-Public-Domain")],
]);

/** Classifier segments that carry no license information (PEP 639: ignore). */
export const GENERIC_CLASSIFIERS: ReadonlySet<string> = new Set(["osi approved", "dfsg approved"]);

/**
 * Short names found in `info.license`, keyed lowercased with runs of
 * whitespace collapsed. Valid SPDX ids need no entry (they are recognised in
 * any letter case); this table is for the names Python projects actually write.
 */
export const SHORT_NAME_ALIASES: ReadonlyMap<string, LicenseAlias> = new Map([
  ...["mit", "mit license", "mit licence", "the mit license", "the mit license (mit)", "expat"]
    .map((k) => [k, exact("MIT")] as const),
  ...["mit-0", "mit no attribution"].map((k) => [k, exact("MIT-0")] as const),
  // Bare "BSD" is ambiguous like the classifier: the documented 3-clause variant.
  ...["bsd", "bsd license", "bsd licence", "bsd-style", "bsd style"]
    .map((k) => [k, ambiguous("BSD-3-Clause", "BSD-")] as const),
  ...[
    "new bsd",
    "new bsd license",
    "revised bsd",
    "revised bsd license",
    "modified bsd",
    "modified bsd license",
    "3-clause bsd",
    "3-clause bsd license",
    "bsd 3-clause",
    "bsd 3-clause license",
    "bsd-3",
    "bsd3",
    "bsd 3",
  ].map((k) => [k, exact("BSD-3-Clause")] as const),
  ...[
    "simplified bsd",
    "simplified bsd license",
    "freebsd",
    "2-clause bsd",
    "2-clause bsd license",
    "bsd 2-clause",
    "bsd 2-clause license",
    "bsd-2",
    "bsd2",
  ].map((k) => [k, exact("BSD-2-Clause")] as const),
  // Bare "Apache" / "ASL": Apache-2.0, as for the classifier.
  ...["apache", "asl", "apache software license", "apache license"]
    .map((k) => [k, ambiguous("Apache-2.0", "Apache-")] as const),
  ...[
    "apache 2",
    "apache 2.0",
    "apache-2",
    "apache2",
    "apache v2",
    "apache license 2.0",
    "apache license v2",
    "apache license v2.0",
    "apache license version 2.0",
    "apache license, version 2.0",
    "apache software license 2.0",
    "apache software license, version 2.0",
    "asl 2.0",
    "asl2",
  ].map((k) => [k, exact("Apache-2.0")] as const),
  ...["psf", "psfl", "psf license", "python software foundation license", "psf-2.0"]
    .map((k) => [k, exact("PSF-2.0")] as const),
  ...["isc", "isc license", "iscl", "isc license (iscl)"].map((k) => [k, exact("ISC")] as const),
  // SPEC §15.11: bare GPL → GPL-2.0-or-later.
  ...["gpl", "gnu gpl", "gnu general public license", "gnu general public license (gpl)"]
    .map((k) => [k, ambiguous("GPL-2.0-or-later", "GPL-")] as const),
  ...["gplv2", "gpl v2", "gpl2", "gpl-2", "gpl 2", "gnu gpl v2", "gnu gplv2"]
    .map((k) => [k, ambiguous("GPL-2.0-only", "GPL-2.0")] as const),
  ...["gplv2+", "gpl v2+", "gpl2+", "gpl-2+", "gplv2 or later", "gpl v2 or later"]
    .map((k) => [k, exact("GPL-2.0-or-later")] as const),
  ...["gplv3", "gpl v3", "gpl3", "gpl-3", "gpl 3", "gnu gpl v3", "gnu gplv3"]
    .map((k) => [k, ambiguous("GPL-3.0-only", "GPL-3.0")] as const),
  ...["gplv3+", "gpl v3+", "gpl3+", "gpl-3+", "gplv3 or later", "gpl v3 or later"]
    .map((k) => [k, exact("GPL-3.0-or-later")] as const),
  ...["lgpl", "gnu lgpl", "gnu lesser general public license", "gnu library general public license"]
    .map((k) => [k, ambiguous("LGPL-2.0-or-later", "LGPL-")] as const),
  ...["lgplv2", "lgpl v2", "lgpl2"].map((k) => [k, ambiguous("LGPL-2.0-only", "LGPL-2.")] as const),
  ...["lgplv2+", "lgpl v2+", "lgpl2+"].map((k) =>
    [k, ambiguous("LGPL-2.0-or-later", "LGPL-2.")] as const
  ),
  ...["lgplv2.1", "lgpl v2.1", "lgpl 2.1", "lgpl-2.1"].map((k) =>
    [k, exact("LGPL-2.1-only")] as const
  ),
  ...["lgplv2.1+", "lgpl v2.1+", "lgpl 2.1+", "lgpl-2.1+"]
    .map((k) => [k, exact("LGPL-2.1-or-later")] as const),
  ...["lgplv3", "lgpl v3", "lgpl3", "lgpl-3"].map((k) =>
    [k, ambiguous("LGPL-3.0-only", "LGPL-3.0")] as const
  ),
  ...["lgplv3+", "lgpl v3+", "lgpl3+", "lgpl-3+"].map((k) =>
    [k, exact("LGPL-3.0-or-later")] as const
  ),
  ...["agpl", "gnu agpl", "gnu affero general public license"]
    .map((k) => [k, ambiguous("AGPL-3.0-or-later", "AGPL-")] as const),
  ...["agplv3", "agpl v3", "agpl3", "agpl-3"].map((k) =>
    [k, ambiguous("AGPL-3.0-only", "AGPL-3.0")] as const
  ),
  ...["agplv3+", "agpl v3+", "agpl3+"].map((k) => [k, exact("AGPL-3.0-or-later")] as const),
  ...["mpl", "mpl 2", "mpl 2.0", "mpl2", "mplv2", "mozilla public license 2.0"]
    .map((k) => [k, exact("MPL-2.0")] as const),
  ...["zpl", "zope public license"].map((k) => [k, ambiguous("ZPL-2.1", "ZPL-")] as const),
  ...["zpl 2.1", "zpl-2.1"].map((k) => [k, exact("ZPL-2.1")] as const),
  ...["unlicense", "the unlicense"].map((k) => [k, exact("Unlicense")] as const),
  ...["cc0", "cc0 1.0", "cc0-1.0"].map((k) => [k, exact("CC0-1.0")] as const),
  ...["public domain", "public-domain"].map((k) => [k, exact("LicenseRef-Public-Domain")] as const),
  ...["zlib", "zlib/libpng"].map((k) => [k, exact("Zlib")] as const),
  ["wtfpl", exact("WTFPL")],
  ["hpnd", exact("HPND")],
]);

/**
 * Values of `info.license` that mean "not stated" and are skipped, so the
 * next source (or UNKNOWN) applies.
 */
export const PLACEHOLDER_LICENSES: ReadonlySet<string> = new Set([
  "",
  "unknown",
  "none",
  "n/a",
  "na",
  "-",
  "other",
  "see license",
  "see license file",
  "license",
  "license.txt",
]);

/**
 * Recognisable first lines (or fingerprints) of full license texts found in
 * `info.license`, checked in order.
 */
export const LICENSE_TEXT_FINGERPRINTS: ReadonlyArray<{ pattern: RegExp; spdx: string }> = [
  { pattern: /^\s*(the\s+)?mit\s+license/i, spdx: "MIT" },
  { pattern: /^\s*apache\s+license[\s,]*\n?\s*version\s+2\.0/i, spdx: "Apache-2.0" },
  { pattern: /^\s*bsd\s+3-clause\s+license/i, spdx: "BSD-3-Clause" },
  { pattern: /^\s*bsd\s+2-clause\s+license/i, spdx: "BSD-2-Clause" },
  { pattern: /^\s*mozilla\s+public\s+license\s+version\s+2\.0/i, spdx: "MPL-2.0" },
  { pattern: /^\s*gnu\s+general\s+public\s+license\s*\n\s*version\s+3/i, spdx: "GPL-3.0-only" },
  { pattern: /^\s*gnu\s+general\s+public\s+license\s*\n\s*version\s+2/i, spdx: "GPL-2.0-only" },
  {
    pattern: /^\s*gnu\s+lesser\s+general\s+public\s+license\s*\n\s*version\s+3/i,
    spdx: "LGPL-3.0-only",
  },
  {
    pattern: /^\s*gnu\s+affero\s+general\s+public\s+license\s*\n\s*version\s+3/i,
    spdx: "AGPL-3.0-only",
  },
  // Body fingerprints for texts that start with a copyright line.
  { pattern: /permission is hereby granted, free of charge, to any person/i, spdx: "MIT" },
  {
    pattern:
      /redistribution and use in source and binary forms[\s\S]*neither the name[\s\S]*may be used to endorse/i,
    spdx: "BSD-3-Clause",
  },
  {
    pattern: /redistribution and use in source and binary forms/i,
    spdx: "BSD-2-Clause",
  },
  {
    pattern:
      /permission to use, copy, modify, and(\/or)? distribute this software for any purpose/i,
    spdx: "ISC",
  },
];
