/**
 * The text of every file `jscr init` writes: the starter `.jscr.toml`, the GitHub workflow, the
 * pre-push hook, and the `jscr gate` entry merged into `.claude/settings.json`. Pure functions of
 * their inputs, so what init shows is exactly what it writes.
 */
import { configReference, tomlString, type ConfigKey } from '../config/reference.js';
import { ACTION_REF, PACKAGE_NAME } from '../distribution.js';
import { escapeJsonText, escapeOneLine } from '../report/escape.js';
import type { ExcludeGuess } from './excludes.js';

/** A comment line's text: one line, no control or invisible characters. */
function commentText(text: string): string {
  return escapeOneLine(text);
}

function keyLines(key: ConfigKey, active: string | null): string[] {
  const lines = [`# ${key.description} (${key.type}${key.required ? ', required' : ''})`];
  if (active !== null) return [...lines, active];
  const shown = key.defaultToml ?? key.example;
  lines.push(shown === null ? `# ${key.name} = ` : `# ${key.name} = ${shown}`);
  return lines;
}

function excludeLines(guesses: readonly ExcludeGuess[], leftOut: number): string {
  const items = guesses.map((g) => `  ${tomlString(g.glob)}, # ${commentText(g.why)}`);
  if (leftOut > 0) items.push(`  # and ${leftOut} more found; add them as you need`);
  return `exclude = [\n${items.join('\n')}\n]`;
}

/**
 * The starter configuration: every key of the schema, commented out at its default, except
 * `review.exclude`, which lists what was found in the repository.
 */
export function starterConfig(guesses: readonly ExcludeGuess[], leftOut: number): string {
  const out = [
    '# jscr configuration, written by `jscr init`. Every key is shown at its default, commented out;',
    '# uncomment a line to change it. The full reference is docs/configuration.md in the jscr package.',
    '# A review reads this file from the base of the change, so a change cannot weaken its own review.',
  ];
  for (const section of configReference()) {
    out.push('');
    if (section.repeated) {
      out.push(`# [[${section.name}]]   (one table per entry)`);
      for (const key of section.keys) out.push(...keyLines(key, null));
      continue;
    }
    out.push(`[${section.name}]`);
    for (const key of section.keys) {
      const active = key.path === 'review.exclude' && guesses.length > 0 ? excludeLines(guesses, leftOut) : null;
      out.push(...keyLines(key, active));
    }
  }
  return `${out.join('\n')}\n`;
}

/** The pull-request workflow: the jscr Action at its pinned major version, with the Action's own defaults. */
export function workflowFile(): string {
  return [
    '# Written by `jscr init --github`: a security review of every pull request by jscr.',
    '# The Action runs the jscr of its own version, never one chosen by the repository under review.',
    'name: jscr',
    'on:',
    '  pull_request:',
    'permissions:',
    '  contents: read',
    '  # to upload SARIF to code scanning; on pull requests from forks the token is read-only and the',
    '  # Action keeps to annotations and the step summary, and says so',
    '  security-events: write',
    '  actions: read # needed by that upload in a private repository',
    'jobs:',
    '  review:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: actions/checkout@v4',
    '        with:',
    '          fetch-depth: 0',
    '          persist-credentials: false',
    `      - uses: ${ACTION_REF}`,
    // No inputs set: fail_on comes from .jscr.toml, and sarif stays auto so that a fork's read-only
    // token falls back to annotations instead of a failing upload.
    '        # with:',
    '        #   fail-on: high     # default: review.fail_on from .jscr.toml',
    '        #   sarif: auto       # auto skips the upload where the token is read-only (forks)',
    '',
  ].join('\n');
}

/** A word for `sh`, single-quoted. */
function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command line that runs this jscr, quoted for `sh`. */
function commandLine(jscr: readonly string[], ...args: string[]): string {
  return [...jscr.map(shellQuote), ...args].join(' ');
}

/** The first line that marks a pre-push hook as written by jscr. */
const PRE_PUSH_MARK = '# jscr pre-push hook';

/**
 * The pre-push hook: reviews what is being pushed (`@{push}..HEAD`), or, with no upstream yet, the
 * branch against the remote's default branch. It runs the jscr that wrote it, by absolute path.
 */
export function prePushHook(jscr: readonly string[]): string {
  const program = jscr[jscr.length - 1] ?? '';
  return [
    '#!/bin/sh',
    `${PRE_PUSH_MARK}, written by \`jscr init --pre-push\`.`,
    '# It runs the jscr that wrote it, by absolute path: never one picked by PATH or by the lockfile of',
    '# the repository. Skip it once with `git push --no-verify`.',
    `if [ ! -e ${shellQuote(program)} ]; then`,
    `  echo "jscr pre-push: "${shellQuote(program)}" is gone; run \\\`jscr init --pre-push --write --force\\\` again (or push with --no-verify)" >&2`,
    '  exit 1',
    'fi',
    "if git rev-parse --verify --quiet '@{push}' >/dev/null 2>&1; then",
    "  range='@{push}..HEAD'",
    'else',
    '  # no upstream yet: compare with the default branch of the remote being pushed to',
    "  base=''",
    '  remote_head=$(git symbolic-ref --quiet --short "refs/remotes/$1/HEAD" 2>/dev/null)',
    '  for candidate in "$remote_head" "$1/main" "$1/master" main master; do',
    '    if [ -n "$candidate" ] && git rev-parse --verify --quiet "$candidate^{commit}" >/dev/null 2>&1; then',
    '      base=$candidate',
    '      break',
    '    fi',
    '  done',
    '  if [ -z "$base" ]; then',
    '    echo "jscr pre-push: no upstream and no default branch to compare with; push with -u once, or with --no-verify" >&2',
    '    exit 1',
    '  fi',
    '  range="$base...HEAD"',
    'fi',
    `${commandLine(jscr, 'review', '--range', '"$range"')} </dev/null`,
    'status=$?',
    'if [ "$status" -ne 0 ]; then',
    '  echo "jscr pre-push: the review of $range ended with exit code $status (1 findings, 2 could not run, 3 incomplete); push with --no-verify to skip it" >&2',
    'fi',
    'exit "$status"',
    '',
  ].join('\n');
}

/** Tools whose edits the gate checks (Claude Code's PreToolUse matcher). */
const GATE_MATCHER = 'Edit|MultiEdit|Write|NotebookEdit';
/** Claude Code's per-hook timeout in seconds; the gate answers in well under one. */
const GATE_TIMEOUT_S = 5;

/** The outcome of merging the gate into `.claude/settings.json`. */
export type SettingsMerge =
  | { kind: 'unchanged'; why: string }
  | { kind: 'write'; text: string }
  | { kind: 'conflict'; why: string };

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a hook command runs `jscr gate` (this jscr or another installation of it). */
function runsJscrGate(command: unknown): boolean {
  if (typeof command !== 'string') return false;
  return /(^|[\s/'"])jscr['"]?\s+gate\s*$/.test(command) || command.trimEnd().endsWith(`${PACKAGE_NAME} gate`);
}

/**
 * The settings with a PreToolUse entry for `jscr gate` added. Everything already there is kept as it
 * is; the same command already there means nothing to do; a `jscr gate` hook running another jscr is
 * a conflict, repointed at this one with `force`; text that is not a JSON object, or hooks in a shape
 * Claude Code would not read, is a conflict that `force` does not override.
 */
export function mergeGateHook(existing: string | null, jscr: readonly string[], force: boolean): SettingsMerge {
  const command = commandLine(jscr, 'gate');
  const entry = { matcher: GATE_MATCHER, hooks: [{ type: 'command', command, timeout: GATE_TIMEOUT_S }] };
  if (existing === null) return { kind: 'write', text: `${JSON.stringify({ hooks: { PreToolUse: [entry] } }, null, 2)}\n` };
  let settings: unknown;
  try {
    settings = JSON.parse(existing.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { kind: 'conflict', why: `is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix it or add the hook by hand` };
  }
  if (!isObject(settings)) return { kind: 'conflict', why: 'is not a JSON object' };
  const hooks = settings.hooks ?? {};
  if (!isObject(hooks)) return { kind: 'conflict', why: '"hooks" is not an object' };
  const listed = hooks.PreToolUse ?? [];
  if (!Array.isArray(listed)) return { kind: 'conflict', why: '"hooks.PreToolUse" is not a list' };
  const preToolUse: unknown[] = listed;
  const hooksOf = (group: unknown): unknown[] | null => (isObject(group) && Array.isArray(group.hooks) ? (group.hooks as unknown[]) : null);
  const gateCommands = preToolUse.flatMap((group) => (hooksOf(group) ?? []).flatMap((h) => (isObject(h) && typeof h.command === 'string' && runsJscrGate(h.command) ? [h.command] : [])));
  if (gateCommands.includes(command)) return { kind: 'unchanged', why: 'already runs this jscr gate before edits' };
  let updated: unknown[];
  if (gateCommands.length === 0) {
    updated = [...preToolUse, entry];
  } else if (!force) {
    return { kind: 'conflict', why: `already runs another jscr gate (${gateCommands[0] ?? ''}); --force points it at this jscr` };
  } else {
    updated = preToolUse.map((group) => {
      const groupHooks = hooksOf(group);
      return groupHooks === null ? group : { ...(group as JsonObject), hooks: groupHooks.map((h) => (isObject(h) && runsJscrGate(h.command) ? { ...h, command } : h)) };
    });
  }
  const merged = { ...settings, hooks: { ...hooks, PreToolUse: updated } };
  // the user's own strings are kept; only their invisible characters are written as escapes
  return { kind: 'write', text: `${escapeJsonText(JSON.stringify(merged, null, 2))}\n` };
}
