import { equal } from "node:assert/strict";
import { isValidName } from "../core/names.ts";
import { DistributionNameSchema, MAX_NAME_IN_PATH } from "./names.ts";

Deno.test("DistributionNameSchema takes the PEP 508 names the evaluation takes, up to the path limit", () => {
  const valid = ["requests", "PyYAML", "zope.interface", "python_dateutil", "a", "x".repeat(200)];
  const invalid = ["", "-foo", "foo.", "_x", "bad name", "pycr\u0443pto", "a/b", "x".repeat(201)];
  for (const name of valid) equal(DistributionNameSchema.safeParse(name).success, true, name);
  for (const name of invalid) equal(DistributionNameSchema.safeParse(name).success, false, name);
  for (const name of [...valid, ...invalid]) {
    const inPath = name.length <= MAX_NAME_IN_PATH && isValidName(name);
    equal(DistributionNameSchema.safeParse(name).success, inPath, name);
  }
});
