"""Builds minimal pure-Python wheels offline for the policy index tests.

Reads a JSON list of {"name", "version", "requires": [..]} from stdin and
writes one py3-none-any wheel per entry into the directory given as argv[1]:
a package module, METADATA (with Requires-Dist), WHEEL and a RECORD with
sha256 hashes, as the wheel specification (PEP 427) describes. Timestamps are
fixed, so the same input gives the same bytes. Prints the file names.
"""
import base64
import hashlib
import json
import os
import sys
import zipfile


def record_hash(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def build(out: str, name: str, version: str, requires: list) -> str:
    dist = name.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    metadata = "".join(
        [f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"]
        + [f"Requires-Dist: {r}\n" for r in requires]
    )
    files = {
        f"{dist}/__init__.py": f'VERSION = "{version}"\n',
        f"{info}/METADATA": metadata,
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: policyd-tests\n"
        "Root-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = "".join(
        f"{path},{record_hash(text.encode())},{len(text.encode())}\n"
        for path, text in files.items()
    ) + f"{info}/RECORD,,\n"
    files[f"{info}/RECORD"] = record
    filename = f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(out, filename), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, text in files.items():
            entry = zipfile.ZipInfo(path, date_time=(2024, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, text)
    with open(os.path.join(out, filename + ".metadata"), "w") as meta:
        meta.write(metadata)
    return filename


if __name__ == "__main__":
    for spec in json.load(sys.stdin):
        print(build(sys.argv[1], spec["name"], spec["version"], spec.get("requires", [])))
