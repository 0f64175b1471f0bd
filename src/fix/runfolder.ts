/**
 * Step 6 of `jscr fix`: the run folder, outside the repository, where every finding's row (the
 * consultation, the proposal, the guard's verdict, the outcome) and a summary are kept. It never lives
 * inside the repository: the record of what was written must not become part of what is reviewed.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, realpath, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { isWithin } from '../policy/paths.js';

/** Where the run folder goes, from `--out` or the XDG state directory. */
export interface RunFolderRequest {
  out?: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The repository root (real path); the folder may not be under it. */
  root: string;
  now: Date;
}

/** The folder to use (not yet created). `--out` inside the repository, or a non-empty one, is a UsageError. */
export async function chooseRunFolder(request: RunFolderRequest): Promise<string> {
  const given = request.out !== undefined;
  const folder = given ? resolve(request.cwd, request.out ?? '') : join(stateHome(request.env), 'jscr', 'runs', runName(request.now));
  const real = await realNearest(folder);
  // Spelled inside the repository is inside it, even when a link there leads out: the change can commit
  // that link, and so choose where the run folder goes.
  if (isWithin(request.root, real) || isWithin(request.root, folder)) {
    throw new UsageError(`${given ? '--out' : 'the run folder'} ${folder} is inside the repository; choose a folder outside it`);
  }
  if (given) {
    // a device or FIFO named as --out is never made into, or replaced by, a folder
    const existing = await stat(folder).catch(() => null);
    if (existing !== null && !existing.isDirectory()) throw new UsageError(`--out ${folder} exists and is not a folder`);
    const entries = await readdir(folder).catch(() => null);
    if (entries !== null && entries.length > 0) throw new UsageError(`--out ${folder} already exists and is not empty`);
  }
  return folder;
}

/** `$XDG_STATE_HOME` when it is an absolute path (the XDG rule), else `~/.local/state`. */
function stateHome(env: NodeJS.ProcessEnv): string {
  const xdg = env['XDG_STATE_HOME'];
  if (xdg !== undefined && isAbsolute(xdg)) return xdg;
  return join(env['HOME'] ?? homedir(), '.local', 'state');
}

/** `20250102T030405Z-1a2b3c`: sortable by time, unique by the random tail. */
function runName(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

/** The real path of `path`, resolving the deepest ancestor that exists (the folder itself may not yet). */
async function realNearest(path: string): Promise<string> {
  let current = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(await realpath(current), ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      rest.push(current.slice(parent.length).replace(/^[/\\]/, ''));
      current = parent;
    }
  }
}

/** Create the folder and write the rows (one JSON object a line) and the summary. */
export async function writeRunFolder(folder: string, rows: readonly unknown[], summary: unknown, scrub: (text: string) => string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const lines = rows.map((row) => scrub(JSON.stringify(row)));
  await writeFile(join(folder, 'runs.jsonl'), lines.length > 0 ? `${lines.join('\n')}\n` : '', { mode: 0o600 });
  await writeFile(join(folder, 'summary.json'), `${scrub(JSON.stringify(summary, null, 2))}\n`, { mode: 0o600 });
}
