/**
 * Registry snapshots for tests, compiled through the real compiler.
 *
 * @module
 */
import { compileRegistry, createSnapshot } from "../../src/registry/compile.ts";
import type { RegistrySnapshot } from "../../src/core/types.ts";

/** Compiles YAML into a snapshot or throws with the errors. */
export async function snapshotOf(yaml: string): Promise<RegistrySnapshot> {
  const compiled = await compileRegistry(yaml, new Date("2026-11-21T00:00:00Z"));
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
  return createSnapshot(compiled.registry, compiled.contentHash);
}

/** The §5 example policies plus a few rules covering every status. */
export const TEST_REGISTRY_YAML = `
version: "test-1"
policies:
  cve_threshold: 7.0
  block_on_cve: true
  unversioned_cve_scope: latest
  licenses:
    allowed: [MIT, Apache-2.0, BSD-2-Clause, BSD-3-Clause, ISC, PSF-2.0, MPL-2.0]
    denied: [GPL-2.0-only, GPL-2.0-or-later, GPL-3.0-only, GPL-3.0-or-later, AGPL-3.0-only, AGPL-3.0-or-later, SSPL-1.0]
  unknown_license_policy: provisional
packages:
  - name: requests
    status: preferred
  - name: flask
    status: approved
  - name: pyyaml
    status: version-constrained
    min_version: "6.0.1"
    reason: "yaml.load RCE before 5.4"
  - name: urllib3
    status: version-constrained
    min_version: "2.0"
    max_version: "2.2.9"
  - name: nose
    status: deprecated
    reason: "unmaintained"
    replacement: pytest
  - name: pycrypto
    status: banned
    reason: "unmaintained since 2013"
    replacement: cryptography
`;
