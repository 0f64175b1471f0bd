/** `jscr init`: flags in, the plan shown, written with --write; exit 0 written or nothing to do, 2 on a conflict. */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError, oneLine } from '../errors.js';
import type { CommandIO, ExitCode } from '../io.js';
import { applyInit, filesToWrite, planInit, type InitPlan } from '../init/init.js';
import { runsEmbedded } from '../package-root.js';
import { escapeOneLine } from '../report/escape.js';

export interface InitOptions {
  repo?: string;
  github?: boolean;
  claude?: boolean;
  prePush?: boolean;
  write?: boolean;
  force?: boolean;
}

/**
 * The absolute command that runs this jscr: the single executable alone, or node and the launcher
 * script. Hooks run exactly this, never a jscr found on PATH or in the repository's node_modules.
 */
function selfCommand(): string[] {
  // Inside the single executable argv[1] is the executable again, so it alone is the command.
  if (runsEmbedded()) return [process.execPath];
  const script = process.argv[1];
  return script === undefined ? [process.execPath] : [process.execPath, realpathSync(script)];
}

function planLines(plan: InitPlan, write: boolean): string[] {
  const lines = plan.files.map((f) => `  ${f.action.padEnd(9)} ${escapeOneLine(f.shown)}${f.note === '' ? '' : `: ${escapeOneLine(f.note)}`}`);
  const pending = filesToWrite(plan);
  if (write || pending.length === 0) return lines;
  for (const file of pending) lines.push('', `--- ${escapeOneLine(file.shown)} (${file.action})`, ...(file.text ?? '').replace(/\n$/, '').split('\n'));
  return lines;
}

/** `jscr init`. */
export async function initCommand(options: InitOptions, io: CommandIO): Promise<ExitCode> {
  const plan = await planInit({
    repoDir: resolve(io.cwd, options.repo ?? '.'),
    github: options.github === true,
    claude: options.claude === true,
    prePush: options.prePush === true,
    force: options.force === true,
    jscr: selfCommand(),
  });
  const conflicts = plan.files.filter((f) => f.action === 'conflict');
  const pending = filesToWrite(plan);
  const write = options.write === true;
  const heading =
    conflicts.length > 0
      ? 'jscr init: nothing written, because of the conflicts below'
      : pending.length === 0
        ? 'jscr init: nothing to do'
        : write
          ? 'jscr init: wrote'
          : 'jscr init: would write (run again with --write to write it)';
  if (conflicts.length > 0) {
    io.stdout.write(`${[heading, ...planLines(plan, true)].join('\n')}\n`);
    for (const file of conflicts) io.stderr.write(`jscr: ${escapeOneLine(file.shown)} ${escapeOneLine(file.note)}\n`);
    return 2;
  }
  if (write && pending.length > 0) {
    try {
      await applyInit(plan);
    } catch (error) {
      throw new InputError(`init could not write (${oneLine(error instanceof Error ? error.message : String(error))})`);
    }
  }
  io.stdout.write(`${[heading, ...planLines(plan, write)].join('\n')}\n`);
  return 0;
}
