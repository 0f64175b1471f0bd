/**
 * Commander wiring only: parse flags, call one library function per command, map the result or a
 * typed error to an exit code (SPEC 2). Libraries are imported lazily so `--help` stays fast.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { reportError } from './errors.js';
import type { CommandIO, ExitCode } from './io.js';
import { withRunEnvironment } from './policy/environment.js';
import type { InitOptions } from './commands/init.js';
import type { FactsInitOptions } from './commands/facts.js';
import type { FixOptions } from './commands/fix.js';
import type { GuardOptions } from './commands/guard.js';
import type { ProfileOptions } from './commands/profile.js';
import type { ProveOptions } from './commands/prove.js';
import type { ReviewOptions } from './commands/review.js';
import { FAIL_ON_LEVELS } from './report/exit.js';
import { REPORT_FORMATS } from './report/options.js';
import { VERSION } from './version.js';

const FORMATS_PROVE = ['text', 'json', 'sarif'] as const;

/** A whole number for an option; commander prints the one-line error and we exit 2. */
function wholeNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('expected a whole number');
  return n;
}

/**
 * A path or revision option's value. An empty one is refused rather than read as "not given": in CI,
 * `--repo "$DIR"` or `--config "$FILE"` with the variable unset would otherwise review something else.
 */
function given(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('It is empty (is a variable in the command unset?)');
  return value;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, given(value)];
}

/** Build the program; `run` receives each command's exit code. */
function buildProgram(io: CommandIO, run: (work: () => Promise<ExitCode>) => void, usageError: (line: string) => void = (line) => io.stderr.write(line)): Command {
  const program = new Command('jscr')
    .description('Review a code change for security problems.')
    .version(VERSION, '-V, --version', 'print the version')
    .showHelpAfterError(false)
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // One line, in jscr's own voice, like every other error.
      outputError: (s) => usageError(`jscr: ${s.replace(/^error: /, '').trimEnd()}\n`),
    })
    .exitOverride();

  const changeFlags = (cmd: Command): Command =>
    cmd
      .option('--range <A..B>', 'review the change A..B (or A...B from the merge base)', given)
      .option('--staged', 'review the staged change')
      .option('--commit <sha>', 'review one commit', given)
      .option('--repo <dir>', 'the repository (default: the current directory)', given)
      .option('--config <file>', "a .jscr.toml to use instead of the one at the change's base revision", given);

  changeFlags(program.command('review').description('review a change (default: the working tree against HEAD)'))
    .addOption(new Option('--format <format>', 'report format').choices(REPORT_FORMATS).default('text'))
    .option('--output <file>', 'write the report to a file instead of stdout', given)
    .addOption(new Option('--fail-on <severity>', 'lowest severity that makes the exit code 1 (default: review.fail_on, "low")').choices(FAIL_ON_LEVELS))
    .option('--no-model', 'do not call a model even if one is configured')
    .option('--quiet', 'no progress on stderr')
    .action((opts: ReviewOptions) => run(async () => (await import('./commands/review.js')).reviewCommand(opts, io)));

  program
    .command('prove')
    .description('find protected operations reachable from a web entry point with no permission check')
    .option('--repo <dir>', 'the repository (default: the current directory)', given)
    .option('--base <rev>', 'prove only the change base..head', given)
    .option('--head <rev>', 'the head revision (default: HEAD)', given)
    .addOption(new Option('--format <format>', 'report format').choices(FORMATS_PROVE).default('text'))
    .option('--max-depth <n>', 'how many calls deep a path may be (0 to 10; default: prover.max_depth, 3)', wholeNumber)
    .option('--config <file>', 'a .jscr.toml to use instead of the one in the base (or head) revision', given)
    .option('--pool <file>', 'score the prover on a pool of fixes and ordinary commits (a JSON file)', given)
    .option('--out <dir>', 'with --pool: the folder for records.jsonl (resumable) and summary.json', given)
    .option('--repos <dir>', "with --pool: the folder the pool's repository paths are relative to (default: the pool file's folder)", given)
    .action((opts: ProveOptions) => run(async () => (await import('./commands/prove.js')).proveCommand(opts, io)));

  changeFlags(program.command('fix').description('ask the model for fixes and write the ones the guard accepts'))
    .option('--finding <fingerprint>', 'fix only this finding (repeatable)', collect, [])
    .option('--accept-model', 'write accepted proposals (without it, print them as diffs)')
    .option('--verify <cmd>', 'a command to run after each write; a failure restores the file', given)
    .option('--out <dir>', 'the run folder (default: under $XDG_STATE_HOME/jscr/runs)', given)
    .action((opts: FixOptions) => run(async () => (await import('./commands/fix.js')).fixCommand(opts, io)));

  program
    .command('guard')
    .description('check one edit proposal against its consultation (prints the verdict as JSON)')
    .requiredOption('--repo <dir>', 'the repository root', given)
    .requiredOption('--consultation <file>', 'the consultation JSON', given)
    .requiredOption('--proposal <file>', 'the proposal JSON', given)
    .action((opts: GuardOptions) => run(async () => (await import('./commands/guard.js')).guardCommand(opts, io)));

  program
    .command('profile')
    .description('print the change profile of a PreToolUse payload read from stdin')
    .option('--file-text <file>', 'the current text of the target file', given)
    .action((opts: ProfileOptions) => run(async () => (await import('./commands/profile.js')).profileCommand(opts, io)));

  program
    .command('gate')
    .description('the coding-agent edit gate (a PreToolUse hook; payload on stdin)')
    .action(() => run(async () => (await import('./commands/gate.js')).gateCommand(io)));

  program
    .command('rules')
    .description('the built-in rules')
    .command('list')
    .description('list the built-in rules with id, severity and CWE')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json'] as const).default('text'))
    .action((opts: { format: 'text' | 'json' }) => run(async () => (await import('./commands/rules.js')).rulesListCommand(io, opts.format)));

  program
    .command('init')
    .description('show (and with --write, write) a starter .jscr.toml and, when asked, CI, gate and pre-push setup')
    .option('--repo <dir>', 'the repository (default: the current directory)', given)
    .option('--github', 'also a GitHub Actions workflow (.github/workflows/jscr.yml)')
    .option('--claude', 'also the jscr gate hook in .claude/settings.local.json (merged)')
    .option('--pre-push', 'also a git pre-push hook that reviews what is pushed')
    .option('--write', 'write the files (without it, only show them)')
    .option('--force', 'replace files jscr init would otherwise keep or refuse to overwrite')
    .action((opts: InitOptions) => run(async () => (await import('./commands/init.js')).initCommand(opts, io)));

  program
    .command('facts')
    .description("the prover's facts for this repository: its own check helpers, verified against the code")
    .command('init')
    .description('read what the engine recognises, gate proposed check helpers, and with --write add them to .jscr.toml')
    .option('--repo <dir>', 'the repository (default: the current directory)', given)
    .option('--head <rev>', 'the revision to read (default: HEAD)', given)
    .option('--propose', 'also ask the configured model which functions are authorization checks (every row is verified)')
    .option('--from <file>', "a maintainer's proposal file ([[guards]] rows with name, checks, source = \"path:line\", reason)")
    .option('--config <file>', 'a .jscr.toml to use instead of the one at the revision', given)
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--write', 'append the promoted rows to .jscr.toml (without it, only show them)')
    .action((opts: FactsInitOptions) => run(async () => (await import('./commands/facts.js')).factsInitCommand(opts, io)));

  return program;
}

/**
 * Run the CLI with these arguments and return the exit code. Every process and temporary folder the
 * run starts takes `io.env`, so in-process callers (the end-to-end tests) each get their own.
 */
export function main(argv: string[], io: CommandIO): Promise<ExitCode> {
  return withRunEnvironment(io.env, () => runCommandLine(argv, io));
}

async function runCommandLine(argv: string[], io: CommandIO): Promise<ExitCode> {
  // Set by the command's action; a holder object, since TypeScript cannot see a callback assign a local.
  const started: { work: Promise<ExitCode> | null } = { work: null };
  // Commander's own error line may quote an argument (a token in a branch name): held, masked, then printed.
  let usageLine = '';
  const program = buildProgram(
    io,
    (work) => {
      started.work = work();
    },
    (line) => {
      usageLine += line;
    },
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version are "errors" to commander with exit code 0.
      if (error.exitCode === 0) return 0;
      io.stderr.write(usageLine === '' ? '' : await maskedText(usageLine));
      return 2;
    }
    return reportError(await masked(error), io.stderr);
  }
  const pending = started.work;
  if (pending === null) {
    io.stderr.write('jscr: no command given; see jscr --help\n');
    return 2;
  }
  try {
    return await pending;
  } catch (error) {
    return reportError(await masked(error), io.stderr);
  }
}

/**
 * An error's message with secret shapes masked before it is printed (a token in a revision name or a
 * config value). Loaded only on failure; if even the secret rules cannot load, the error is that.
 */
async function masked(error: unknown): Promise<unknown> {
  try {
    return (await import('./redact/mask.js')).maskError(error);
  } catch {
    return error;
  }
}

async function maskedText(text: string): Promise<string> {
  try {
    return new (await import('./redact/mask.js')).SecretBook().mask(text);
  } catch {
    return text;
  }
}
