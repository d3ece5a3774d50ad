/**
 * The hook's cheap first look at a shell command: could it install a package, write a manifest,
 * touch the gate's own files, point at an index or approve? When not (`ls -la && git status`),
 * the hook answers without loading the shell reader, the requirement parser or the configuration
 * (docs/performance.md, "Client start-up"). A superset test over the raw text: every word the
 * full reader (`shell.ts`) acts on appears literally in the command, so a miss here is a miss
 * there too. No imports.
 *
 * @module
 */

/** Programs, subcommands and file names the full reader acts on. */
const RELEVANT = new RegExp(
  [
    // installers, runners and interpreters (`python -m pip`), and the subcommands of the unknown
    // program (`$TOOL install x`), `eval` and shells running a string
    String.raw`\b(pip\w*|uvx?|poetry|pdm|pipx|pipenv|hatch|rye|easy_install|conda|mamba)\b`,
    String.raw`\bmicromamba\b`,
    String.raw`\b(python\d*(\.\d+)?|py|pypy\d*|install|uninstall|add|sync|inject|approve|eval)\b`,
    // shells that run a script, a string or their input, and sourced scripts
    String.raw`\b(sh|bash|zsh|dash|ksh|pwsh|source)\b|(^|[;&|(]\s*)\.\s`,
    // manifests and the gate's own files
    String.raw`requirements|constraints|pyproject|setup\.(py|cfg)|pipfile|tox\.ini`,
    String.raw`environment\.ya?ml|\.policy\.toml|hooks|\.claude|\.cursor|\.gemini|\.codex`,
    // a PEP 723 block written into a Python file
    String.raw`///\s*script`,
    // a program that is a command substitution (`$(…) install x`, a backquoted command)
    String.raw`(^|[;&|(]\s*)(\$\(|\x60)`,
    // index variables and the proposals API
    String.raw`index|proposals`,
  ].join("|"),
  "i",
);

/** An assignment and a variable: the words may be built from pieces (`a=pi; b=p; $a$b …`). */
const BUILT = /[A-Za-z_][A-Za-z0-9_]*=[\s\S]*\$/;

/**
 * False when the command certainly installs, writes and approves nothing the gate judges. Quotes
 * and backslashes are dropped first, as the shell drops them (`'p'ip i\nstall`).
 */
export function mightMatter(command: string): boolean {
  const text = command.replace(/["'\\]/g, "");
  return RELEVANT.test(text) || BUILT.test(text);
}
