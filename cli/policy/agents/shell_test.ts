import assert from "node:assert/strict";
import { requestedPackages } from "./shell.ts";
import { simpleCommands } from "./shell_words.ts";

const FILES: Record<string, string> = {
  "/p/sub/req.txt": "requests==2.31.0  # pinned\n-r more.txt\n--index-url https://x/simple\n",
  "/p/sub/more.txt": "pycrypto>=2.6\n",
};
const read = (path: string) => FILES[path] ?? null;

function names(command: string, cwd = "/p"): string[] {
  return requestedPackages(command, cwd, read).map((r) =>
    `${r.name}${r.version ? `@${r.version}` : ""}`
  );
}

Deno.test("requestedPackages() finds every installer's packages", () => {
  const cases: Array<[string, string[]]> = [
    ["pip install pycrypto", ["pycrypto"]],
    ["pip3 install -U 'requests[socks]>=2.31' \"PyYAML==5.1\"", ["requests@2.31", "pyyaml@5.1"]],
    ["python -m pip install pycrypto==2.6.1", ["pycrypto@2.6.1"]],
    ["python3 -m pip install --index-url https://x/simple --no-deps pycrypto", ["pycrypto"]],
    ["/usr/bin/python3.12 -m pip install flask", ["flask"]],
    ["uv add pycrypto --dev", ["pycrypto"]],
    ["uv add --group lint ruff 'django>=4.2,<5'", ["ruff", "django@4.2"]],
    ["uv pip install -e . flask", ["flask"]],
    ["uv tool install ruff --with pycrypto", ["ruff", "pycrypto"]],
    ["poetry add django@^4.2 pycrypto@latest", ["django@4.2", "pycrypto"]],
    ["poetry add --group dev pytest", ["pytest"]],
    ["pdm add -G dev pycrypto", ["pycrypto"]],
    ["pipx install pycowsay==0.0.0.1", ["pycowsay@0.0.0.1"]],
    ["FOO=1 sudo -H pip install pycrypto", ["pycrypto"]],
    ["bash -lc 'pip install pycrypto'", ["pycrypto"]],
    ["sudo -u app pip install pycrypto", ["pycrypto"]],
    ["uvx pycrypto --help", ["pycrypto"]],
    ["uvx --from httpie http GET example.org", ["httpie"]],
    ["uv tool run --with pycrypto ruff check .", ["pycrypto", "ruff"]],
    ["uv run --with pycrypto python script.py", ["pycrypto"]],
    ["pipx run pycowsay moo", ["pycowsay"]],
    ["pipx run --spec pycrypto==2.6.1 crypto-cli", ["pycrypto@2.6.1"]],
    ["pip install 'pycrypto @ https://example.org/pycrypto-2.6.1.tar.gz'", ["pycrypto"]],
  ];
  for (const [command, expected] of cases) assert.deepEqual(names(command), expected, command);
});

Deno.test("requestedPackages() follows && ; | and cd chains and reads -r files relative to cwd", () => {
  assert.deepEqual(names("cd sub && pip install -r req.txt"), ["requests@2.31.0", "pycrypto@2.6"]);
  assert.deepEqual(names("cd sub; pip install --requirement=req.txt"), [
    "requests@2.31.0",
    "pycrypto@2.6",
  ]);
  assert.deepEqual(names("pip install -r sub/req.txt 2>&1 | tail -5"), [
    "requests@2.31.0",
    "pycrypto@2.6",
  ]);
  assert.deepEqual(names("git pull && uv add x || echo failed; pip install y"), ["x", "y"]);
  assert.deepEqual(names("pip install a \\\n  b"), ["a", "b"]);
  assert.deepEqual(names("ls\npip install c"), ["c"]);
  assert.deepEqual(names("pip install -r missing.txt"), []);
});

Deno.test("requestedPackages() reads short options given as one cluster (-Ur FILE), never the file as a package", () => {
  const both = ["requests@2.31.0", "pycrypto@2.6"];
  assert.deepEqual(names("pip install -Ur sub/req.txt"), both);
  assert.deepEqual(names("python3 -m pip install -qr sub/req.txt"), both);
  assert.deepEqual(names("pip install -Uqrsub/req.txt"), both);
  assert.deepEqual(names("pip install -r=sub/req.txt"), both);
  assert.deepEqual(names("uv pip install -Ur sub/req.txt"), both);
  assert.deepEqual(names("pip install -qU pycrypto"), ["pycrypto"]);
  assert.deepEqual(names("pip install -vvv -e. flask"), ["flask"]);
  assert.deepEqual(names("pip install -Uc sub/more.txt flask"), ["flask"]);
});

Deno.test("requestedPackages() ignores quoted text, other commands and local paths", () => {
  for (
    const command of [
      "echo 'pip install pycrypto'",
      "git commit -m 'uv add pycrypto'",
      `echo "first line\npip install pycrypto"`,
      "pip download pycrypto",
      "pip uninstall pycrypto",
      "uv sync",
      "poetry install",
      "pip install ./dist/ . ../b",
      "pip install $PACKAGE",
      "# pip install pycrypto",
      "",
    ]
  ) assert.deepEqual(names(command), [], command);
});

Deno.test("requestedPackages() reads the words after a command substitution and the commands inside it", () => {
  assert.deepEqual(names("pip install --index-url $(cat url.txt) pycrypto"), ["pycrypto"]);
  assert.deepEqual(names("pip install $(cat names.txt) pycrypto==2.6.1"), ["pycrypto@2.6.1"]);
  assert.deepEqual(names("echo $(pip install pycrypto) done"), ["pycrypto"]);
  assert.deepEqual(names("pip install pycrypto==$VERSION"), ["pycrypto"]);
  assert.deepEqual(names("(cd sub && pip install -r req.txt)"), [
    "requests@2.31.0",
    "pycrypto@2.6",
  ]);
  // in the order they run: a substitution before the command it is part of
  assert.deepEqual(simpleCommands("pip install $(cat a $(cat b)) c"), [
    ["cat", "b"],
    ["cat", "a", "$(…)"],
    ["pip", "install", "$(…)", "c"],
  ]);
});

Deno.test("simpleCommands() drops redirections and comments", () => {
  assert.deepEqual(simpleCommands("pip install x 2>&1 > log.txt # note"), [[
    "pip",
    "install",
    "x",
  ]]);
});

Deno.test("xargs installs read their requirements from standard input or -a FILE", () => {
  const cases: Array<[string, string[]]> = [
    ["xargs pip install < sub/more.txt", ["pycrypto@2.6"]],
    ["cd sub && xargs -n 1 pip install < req.txt", ["requests@2.31.0", "pycrypto@2.6"]],
    ["cat sub/more.txt | xargs pip install", ["pycrypto@2.6"]],
    ["cat sub/more.txt | sudo xargs -r python3 -m pip install -U", ["pycrypto@2.6"]],
    ["xargs -a sub/more.txt uv pip install", ["pycrypto@2.6"]],
    ["xargs --arg-file=sub/more.txt pip install", ["pycrypto@2.6"]],
    ["xargs pip install pycrypto < /dev/null", ["pycrypto"]],
    ["xargs echo pip install < sub/more.txt", []],
    ["sort sub/more.txt | xargs pip install", []],
    ["xargs rm < sub/more.txt", []],
  ];
  for (const [command, expected] of cases) {
    assert.deepEqual(names(command), expected, command);
  }
});
