/**
 * The options of each Python installer that take a value, so the gate never reads an option's
 * value as a package (`pip install --python 3.12 x`), and the options that name requirement files,
 * packages or package indexes.
 *
 * @module
 */

/** Options that take a value, per installer (everything else is a flag or `--opt=value`). */
/** pip's general options that take a value (before or after the subcommand). */
const PIP_GENERAL_VALUES = [
  "--log",
  "--proxy",
  "--retries",
  "--timeout",
  "--exists-action",
  "--trusted-host",
  "--cert",
  "--client-cert",
  "--cache-dir",
  "--python",
  "--keyring-provider",
];

export const PIP_VALUES = new Set([
  ...PIP_GENERAL_VALUES,
  "-c",
  "--constraint",
  "-e",
  "--editable",
  "-t",
  "--target",
  "--platform",
  "--python-version",
  "--implementation",
  "--abi",
  "--root",
  "--prefix",
  "--src",
  "--upgrade-strategy",
  "-C",
  "--config-settings",
  "--global-option",
  "--no-binary",
  "--only-binary",
  "--progress-bar",
  "--root-user-action",
  "--report",
  "-i",
  "--index-url",
  "--extra-index-url",
  "-f",
  "--find-links",
  "-p",
  "--index-strategy",
  "--resolution",
  "--prerelease",
  "--exclude-newer",
  "--link-mode",
  "--compile-bytecode",
  "--group",
  "--extra",
  "--override",
  "--build-constraint",
  "--directory",
  "--project",
  "--config-file",
  "--default-index",
  "--index",
  "--target",
]);
export const UV_ADD_VALUES = new Set([
  ...PIP_VALUES,
  "--optional",
  "--package",
  "--bounds",
  "--branch",
  "--tag",
  "--rev",
  "--marker",
  "-m",
  "--script",
]);
export const POETRY_VALUES = new Set([
  "-G",
  "--group",
  "-E",
  "--extras",
  "--source",
  "--python",
  "--platform",
  "--markers",
  "-C",
  "--directory",
  "-P",
  "--project",
]);
export const PDM_VALUES = new Set([
  "-G",
  "--group",
  "-e",
  "--editable",
  "-p",
  "--project",
  "-L",
  "--lockfile",
  "-k",
  "--skip",
  "--venv",
  "--update-strategy",
]);
export const PIPX_VALUES = new Set([
  "--python",
  "--pip-args",
  "--index-url",
  "--suffix",
  "--preinstall",
  "--backend",
  "--fetch-python",
]);
export const UV_TOOL_VALUES = new Set([...PIP_VALUES, "--from", "--with", "--with-editable"]);

/** Options whose value is a requirements file to read. */
export const FILE_OPTIONS = new Set([
  "-r",
  "--requirement",
  "--requirements",
  "--with-requirements",
]);
/** Options whose value is itself a requirement (`uv tool install --with x --from y`, `pipx run --spec`). */
export const PACKAGE_OPTIONS = new Set(["--with", "--from", "--spec"]);

/** Global options (before the subcommand) that take a value, per program. */
export const GLOBAL_VALUES: Record<string, Set<string>> = {
  pip: new Set([...PIP_GENERAL_VALUES, "--use-feature", "--use-deprecated"]),
  uv: new Set([
    "--directory",
    "--project",
    "--config-file",
    "--cache-dir",
    "--python-preference",
    "--color",
    "--allow-insecure-host",
  ]),
  poetry: new Set(["-C", "--directory", "-P", "--project"]),
  pdm: new Set(["-p", "--project", "-c", "--config"]),
  pipenv: new Set(["--python"]),
  hatch: new Set(["-e", "--env", "-p", "--project", "--data-dir", "--cache-dir", "--config"]),
  rye: new Set([]),
  pipx: new Set([]),
};

/** Options whose value is a package index URL (pip, uv, pipx). */
export const INDEX_OPTIONS = new Set([
  "-i",
  "--index-url",
  "--extra-index-url",
  "--default-index",
  "--index",
]);

/** Environment variables that point an installer at an index. */
export const INDEX_VARIABLES = new Set([
  "PIP_INDEX_URL",
  "PIP_EXTRA_INDEX_URL",
  "UV_INDEX_URL",
  "UV_EXTRA_INDEX_URL",
  "UV_DEFAULT_INDEX",
  "UV_INDEX",
  "PDM_PYPI_URL",
  "POETRY_REPOSITORIES_PYPI_URL",
]);

/** Options of runners (`uv run`, `pdm run`, …) that take a value, before the command they run. */
export const RUN_VALUES = new Set([
  ...UV_TOOL_VALUES,
  "-n",
  "--name",
  "-e",
  "--env",
  "--env-file",
  "-s",
  "--site-packages",
]);
