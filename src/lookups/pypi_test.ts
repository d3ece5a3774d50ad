import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { createPypiSource, releaseUploadTime } from "./pypi.ts";
import { optionsFromEnv } from "../config/area.ts";
import { lookupsArea } from "./settings.ts";
import { silentLogger } from "../log/logger.ts";
import { type FakeUpstream, startFakeUpstream } from "../../tests/helpers/fake_upstream.ts";
import type { LicenseSource } from "./types.ts";
import { forEachUpstreamFault } from "../../tests/helpers/upstream_faults.ts";

const MIT = "License :: OSI Approved :: MIT License";
const BSD = "License :: OSI Approved :: BSD License";
const APACHE = "License :: OSI Approved :: Apache Software License";
const GPL = "License :: OSI Approved :: GNU General Public License (GPL)";
const PSF = "License :: OSI Approved :: Python Software Foundation License";

/**
 * Every PyPI fixture, read by hand: [file, license, license_raw]. Project-level
 * files answer `GET /pypi/{name}/json`, release-level ones `/pypi/{name}/{version}/json`.
 */
const FIXTURE_LICENSES: Array<[string, string, string | null]> = [
  // Project level.
  ["attrs.json", "MIT", MIT],
  ["black.json", "MIT", MIT],
  ["boolean-py.json", "BSD-3-Clause", BSD], // license "revised BSD license" agrees
  ["cachecontrol.json", "Apache-2.0", APACHE], // license ""
  ["cage.json", "GPL-2.0-or-later", GPL], // license "GPL" agrees
  ["celery.json", "BSD-3-Clause", BSD],
  ["clikit.json", "MIT", MIT],
  ["colorama.json", "BSD-3-Clause", BSD],
  ["django-split-settings.json", "BSD-3-Clause", BSD], // license null
  ["funcsigs.json", "Apache-2.0", APACHE], // license "ASL"
  ["hbmqtt.json", "MIT", MIT],
  ["isort.json", "MIT", MIT],
  ["jupyter.json", "BSD-3-Clause", BSD],
  ["lockfile.json", "MIT", MIT],
  ["luigi.json", "Apache-2.0", APACHE], // license "Apache License 2.0"
  ["more-itertools.json", "MIT", MIT],
  ["pendulum.json", "MIT", MIT],
  ["pluggy.json", "MIT", MIT],
  ["poetry.json", "MIT", MIT],
  // Two classifiers (LGPL, ZPL): ambiguous per PEP 639; the license text is not normalisable.
  ["psycopg2.json", "UNKNOWN", "LGPL with exceptions or ZPL"],
  ["py.json", "MIT", MIT],
  ["pygame-music-grid.json", "UNKNOWN", null], // license "", no classifier
  ["pylev.json", "BSD-3-Clause", BSD], // license "UNKNOWN"
  ["pytest.json", "MIT", MIT],
  ["pyyaml.json", "MIT", MIT],
  ["requests.json", "Apache-2.0", APACHE], // license "Apache 2.0"
  ["setuptools.json", "MIT", MIT],
  ["six.json", "MIT", MIT],
  ["sqlalchemy.json", "MIT", MIT],
  ["toga.json", "BSD-3-Clause", BSD], // license "New BSD"
  ["tomlkit.json", "MIT", MIT],
  ["trackpy.json", "UNKNOWN", null], // license "", no classifier
  ["twisted.json", "MIT", "MIT"], // no classifier: the license field
  // Release level.
  ["aiohttp/3.12.15.json", "Apache-2.0 AND MIT", "Apache-2.0 AND MIT"], // SPDX in `license`
  ["attrs/17.4.0.json", "MIT", MIT],
  ["black/19.10b0.json", "MIT", MIT],
  ["black/21.11b0.json", "MIT", MIT],
  ["boolean-py/2.0.dev3.json", "BSD-3-Clause", BSD],
  ["cachecontrol/0.12.5.json", "Apache-2.0", APACHE],
  ["cage/1.1.2.json", "GPL-2.0-or-later", GPL],
  ["cage/1.1.3.json", "GPL-2.0-or-later", GPL],
  ["cage/1.1.4.json", "GPL-2.0-or-later", GPL],
  ["cleo/1.0.0a5.json", "MIT", MIT],
  ["clikit/0.2.4.json", "MIT", MIT],
  ["colorama/0.3.9.json", "BSD-3-Clause", BSD],
  ["discord-py/2.0.0.json", "MIT", MIT],
  ["filecache/0.81.json", "BSD-3-Clause", BSD],
  ["funcsigs/1.0.2.json", "Apache-2.0", APACHE],
  ["futures/3.2.0.json", "PSF-2.0", PSF], // license "PSF"
  ["hbmqtt/0.9.6.json", "MIT", MIT],
  ["importlib-metadata/1.7.0.json", "Apache-2.0", APACHE],
  ["ipython/4.1.0rc1.json", "BSD-3-Clause", BSD],
  ["ipython/5.7.0.json", "BSD-3-Clause", BSD],
  ["ipython/7.5.0.json", "BSD-3-Clause", BSD],
  // Full BSD-3-Clause text in `license`; the classifier comes first and agrees.
  ["isodate/0.7.0.json", "BSD-3-Clause", BSD],
  ["isort/4.3.4.json", "MIT", MIT],
  ["jupyter/1.0.0.json", "BSD-3-Clause", BSD],
  ["lockfile/0.12.2.json", "MIT", MIT],
  ["lxml/3.2.0.json", "BSD-3-Clause", BSD], // license "UNKNOWN"
  ["more-itertools/4.1.0.json", "MIT", MIT],
  ["pastel/0.1.0.json", "MIT", "MIT"], // no classifier
  ["pluggy/0.6.0.json", "MIT", MIT],
  ["poetry-core/1.5.0.json", "MIT", MIT],
  ["poetry-core/2.1.3.json", "MIT", MIT],
  ["poetry/0.12.4.json", "MIT", MIT],
  ["py/1.5.3.json", "MIT", MIT],
  ["pylev/1.3.0.json", "BSD-3-Clause", BSD],
  ["pytest/3.5.0.json", "MIT", MIT],
  ["pytest/3.5.1.json", "MIT", MIT],
  ["python-language-server/0.21.2.json", "UNKNOWN", null], // license "", no classifier
  ["pyyaml/3.13.json", "MIT", MIT],
  ["requests/2.18.0.json", "Apache-2.0", APACHE],
  ["requests/2.18.1.json", "Apache-2.0", APACHE],
  ["requests/2.18.2.json", "Apache-2.0", APACHE],
  ["requests/2.18.3.json", "Apache-2.0", APACHE],
  ["requests/2.18.4.json", "Apache-2.0", APACHE],
  ["requests/2.19.0.json", "Apache-2.0", APACHE],
  ["setuptools/39.2.0.json", "MIT", MIT],
  ["setuptools/67.6.1.json", "MIT", MIT],
  ["six/1.11.0.json", "MIT", MIT],
  ["sqlalchemy/1.2.12.json", "MIT", MIT],
  ["toga/0.3.0.dev1.json", "BSD-3-Clause", BSD],
  ["toga/0.3.0.dev2.json", "BSD-3-Clause", BSD],
  ["toga/0.3.0.json", "BSD-3-Clause", BSD],
  ["toga/0.4.0.json", "BSD-3-Clause", BSD],
  ["tomlkit/0.5.2.json", "MIT", MIT],
  ["tomlkit/0.5.3.json", "MIT", MIT],
  ["twisted/18.9.0.json", "MIT", "MIT"],
  ["wheel/0.40.0.json", "MIT", MIT],
  ["zipp/3.5.0.json", "MIT", MIT],
];

const PYPI_FIXTURES = new URL("../../tests/fixtures/pypi/", import.meta.url);

async function fixtureFiles(): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(PYPI_FIXTURES)) {
    if (entry.isFile && entry.name.endsWith(".json")) files.push(entry.name);
    if (!entry.isDirectory) continue;
    for await (const file of Deno.readDir(new URL(`${entry.name}/`, PYPI_FIXTURES))) {
      if (file.name.endsWith(".json")) files.push(`${entry.name}/${file.name}`);
    }
  }
  return files.sort();
}

function settingsFor(url: string, timeoutMs = 2000) {
  return optionsFromEnv(lookupsArea, { PYPI_URL: url, LOOKUP_TIMEOUT_MS: String(timeoutMs) });
}

/** Runs `body` with a PyPI source (clock at 2026-11-23 12:00 UTC) over a fake upstream replaying the fixtures. */
async function withPypi(
  body: (pypi: LicenseSource, upstream: FakeUpstream) => Promise<void>,
): Promise<void> {
  const upstream = await startFakeUpstream();
  try {
    const now = () => new Date("2026-11-23T12:00:00Z");
    await body(createPypiSource(settingsFor(upstream.url), silentLogger, { now }), upstream);
  } finally {
    await upstream.close();
  }
}

Deno.test("the license table covers every PyPI fixture file", async () => {
  deepStrictEqual(await fixtureFiles(), FIXTURE_LICENSES.map(([file]) => file).sort());
});

Deno.test("createPypiSource() normalises the license of every PyPI fixture", async (t) => {
  await withPypi(async (pypi) => {
    for (const [file, license, raw] of FIXTURE_LICENSES) {
      await t.step(file, async () => {
        const [name, version] = file.endsWith(".json") && file.includes("/")
          ? [file.split("/")[0], file.split("/")[1].slice(0, -5)]
          : [file.slice(0, -5), null];
        const facts = await pypi.lookup(name, version);
        ok(facts.status === "ok", JSON.stringify(facts));
        equal(facts.license, license);
        equal(facts.license_raw, raw);
      });
    }
  });
});

Deno.test("a versioned lookup reports the project's latest version, not the release's", async () => {
  await withPypi(async (pypi, upstream) => {
    const facts = await pypi.lookup("requests", "2.18.0");
    ok(facts.status === "ok");
    equal(facts.latest_version, "2.18.4"); // info.version of requests.json
    equal(upstream.calls["pypi.release"], 1);
    equal(upstream.calls["pypi.project"], 1);
    const latest = await pypi.lookup("Requests", null);
    ok(latest.status === "ok");
    equal(latest.latest_version, "2.18.4");
  });
});

Deno.test("a package or release PyPI does not know is UNKNOWN and says which is missing", async () => {
  await withPypi(async (pypi) => {
    deepStrictEqual(await pypi.lookup("no-such-package-xyz", null), {
      status: "ok",
      not_found: "project",
      license: "UNKNOWN",
      license_raw: null,
      latest_version: null,
      released_at: null,
      fetched_at: "2026-11-23T12:00:00.000Z",
    });
    // A version PyPI does not have: UNKNOWN, but the latest version is still known.
    deepStrictEqual(await pypi.lookup("requests", "99.0"), {
      status: "ok",
      not_found: "release",
      license: "UNKNOWN",
      license_raw: null,
      latest_version: "2.18.4",
      released_at: null,
      fetched_at: "2026-11-23T12:00:00.000Z",
    });
    // Both documents 404: the project does not exist.
    equal(
      (await pypi.lookup("no-such-package-xyz", "1.0") as { not_found?: string }).not_found,
      "project",
    );
  });
});

Deno.test("PyPI failures yield unavailable within the time-out and log a warning", (t) => {
  const timeoutMs = 400;
  return forEachUpstreamFault(t, "pypi", async ({ url, log, lines }) => {
    const pypi = createPypiSource(settingsFor(url, timeoutMs), log);
    for (const version of [null, "2.18.0"]) {
      const started = performance.now();
      const facts = await pypi.lookup("requests", version);
      const elapsed = performance.now() - started;
      equal(facts.status, "unavailable");
      ok(elapsed < timeoutMs + 500, `took ${elapsed} ms`);
    }
    ok(lines.some((l) => JSON.parse(l).level === "warn" && JSON.parse(l).package === "requests"));
  });
});

Deno.test("releaseUploadTime() takes the earliest file of a real release", async () => {
  const read = async (name: string) =>
    JSON.parse(
      await Deno.readTextFile(new URL(`../../tests/fixtures/pypi/${name}.json`, import.meta.url)),
    );
  const black = await read("black"); // files carry upload_time_iso_8601
  equal(releaseUploadTime(black.urls), "2019-10-28T23:53:54.000Z");
  const requests = await read("requests"); // older answers: upload_time only (UTC)
  equal(releaseUploadTime(requests.urls), "2017-08-15T13:23:43.000Z");
  equal(releaseUploadTime([]), null);
  equal(releaseUploadTime(undefined), null);
});

Deno.test("a lookup reports the release's upload time and its fetch time", async () => {
  await withPypi(async (pypi) => {
    const latest = await pypi.lookup("black", null);
    ok(latest.status === "ok");
    equal(latest.released_at, "2019-10-28T23:53:54.000Z");
    equal(latest.fetched_at, "2026-11-23T12:00:00.000Z");
  });
});

Deno.test("a yanked release comes back yanked with its reason, with the project's history", async () => {
  await withPypi(async (pypi) => {
    const facts = await pypi.lookup("black", "21.11b0");
    ok(facts.status === "ok");
    equal(facts.yanked, true);
    equal(facts.yanked_reason, "Broken regex dependency. Use 21.11b1 instead.");
    equal(facts.first_released_at, "2019-10-28T23:53:54.000Z");
    equal(facts.release_count, 2);
    const latest = await pypi.lookup("black", null);
    ok(latest.status === "ok");
    equal(latest.yanked, undefined, "a version-less lookup is never yanked");
    equal(latest.release_count, 2);
  });
});
