/**
 * `jscr init`: work out every file to write (read → plan), show the plan, and write it only when
 * asked and only when no file is in conflict, so a refused init leaves the repository as it was.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { CONFIG_FILE_NAME } from '../config/load.js';
import { UsageError } from '../errors.js';
import { hookLocations, resolveRepository, committedFiles } from '../git/change.js';
import { PACKAGE_NAME } from '../distribution.js';
import { isWithin, openBoundary } from '../policy/paths.js';
import { isDangerousCodePoint } from '../report/escape.js';
import { guessExcludes, type AttributesFile } from './excludes.js';
import { mergeGateHook, prePushHook, starterConfig, workflowFile } from './files.js';
import { readTarget, writeTarget, type TargetState, type WriteArea } from './targets.js';

export interface InitRequest {
  /** Any directory inside the repository. */
  repoDir: string;
  github: boolean;
  claude: boolean;
  prePush: boolean;
  /** Replace files init would otherwise leave alone or refuse to overwrite. */
  force: boolean;
  /** The command that runs this jscr (absolute paths), for the gate hook and the pre-push hook. */
  jscr: readonly string[];
}

/**
 * What init does with one file: `create` or `replace` it with `text`, `update` it (a merge), leave it
 * (`unchanged`: already as init would write it; `kept`: the user's own, left alone), or `conflict`.
 */
type FileAction = 'create' | 'replace' | 'update' | 'unchanged' | 'kept' | 'conflict';

export interface PlannedFile {
  /** As shown: repository-relative, or absolute for a hooks directory outside the work tree. */
  shown: string;
  abs: string;
  action: FileAction;
  /** The new text for create, replace and update. */
  text: string | null;
  /** Why (for unchanged, kept and conflict). */
  note: string;
  mode: number;
}

/** What to do with one file, decided from what is there now. */
type Decision = Pick<PlannedFile, 'action' | 'text' | 'note'>;

export interface InitPlan {
  root: string;
  area: WriteArea;
  files: PlannedFile[];
}

/**
 * Where `--claude` puts the gate hook: Claude Code's personal project settings, which are not for
 * committing. The hook names this machine's jscr by its absolute path, which another machine does not
 * have; a team that shares `.claude/settings.json` writes `jscr gate` there itself (README).
 */
const CLAUDE_LOCAL_SETTINGS = 'settings.local.json';

/** Settings files and hooks are small; `.gitattributes` files past this many are not read. */
const MAX_ATTRIBUTE_FILES = 100;
const MAX_ATTRIBUTES_BYTES = 256 * 1024;

/** The command that runs jscr goes into hook files: absolute paths only, one plain line. */
function checkJscrCommand(jscr: readonly string[]): void {
  const bad = jscr.length === 0 || jscr.some((part) => !isAbsolute(part) || [...part].some((ch) => (ch.codePointAt(0) ?? 0) < 0x20 || isDangerousCodePoint(ch.codePointAt(0) ?? 0)));
  if (bad) throw new UsageError(`cannot write a hook: the path of this jscr (${jscr.join(' ')}) is not a plain absolute path`);
}

/** Every `.gitattributes` the repository tracks, read through the repository boundary. */
async function attributeFiles(root: string, tracked: readonly string[]): Promise<AttributesFile[]> {
  const boundary = await openBoundary(root, { followSymlinks: false });
  const paths = tracked.filter((p) => p === '.gitattributes' || p.endsWith('/.gitattributes')).slice(0, MAX_ATTRIBUTE_FILES);
  const out: AttributesFile[] = [];
  for (const path of paths) {
    const read = await boundary.readFile(path, { maxBytes: MAX_ATTRIBUTES_BYTES });
    // a link, a file too large or binary content: nothing to suggest from it
    if (read.ok && read.text !== null) out.push({ dir: path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '', text: read.text });
  }
  return out;
}

/** A file init writes whole: the same text is nothing to do; other text is replaced only with --force. */
function wholeFile(state: TargetState, text: string, force: boolean, existingIsUsers: 'kept' | 'conflict'): Decision {
  if (state.kind === 'refused') return { action: 'conflict', text: null, note: state.why };
  if (state.kind === 'absent') return { action: 'create', text, note: '' };
  if (state.text === text) return { action: 'unchanged', text: null, note: 'already as jscr init writes it' };
  if (force) return { action: 'replace', text, note: 'replaced (--force)' };
  return existingIsUsers === 'kept'
    ? { action: 'kept', text: null, note: 'exists; left as it is (--force replaces it)' }
    : { action: 'conflict', text: null, note: 'exists with other content; --force replaces it' };
}

/** Read the repository and decide what to write. Nothing is written here. */
export async function planInit(request: InitRequest): Promise<InitPlan> {
  const root = await resolveRepository(request.repoDir);
  if (request.claude || request.prePush) checkJscrCommand(request.jscr);
  let area: WriteArea = { root, hooksDir: null, gitDir: null };
  if (request.prePush) {
    const { hooksDir, commonDir } = await hookLocations(root);
    area = { root, hooksDir, gitDir: await realpath(commonDir) };
  }
  // a jscr inside the repository (its node_modules) is one the repository's lockfile chose
  const insideJscr = request.jscr.find((part) => isWithin(root, part));
  const runsJscr = (decide: (state: TargetState) => Decision) => (state: TargetState): Decision => {
    if (insideJscr === undefined || request.force) return decide(state);
    return { action: 'conflict', text: null, note: `would run the jscr inside this repository (${insideJscr}), which its lockfile chooses; run init from a jscr installed elsewhere (npm i -g ${PACKAGE_NAME}), or give --force` };
  };
  const shown = (abs: string): string => (abs.startsWith(`${root}/`) ? relative(root, abs) : abs);
  const files: PlannedFile[] = [];
  const add = async (abs: string, mode: number, decide: (state: TargetState) => Decision): Promise<void> => {
    files.push({ shown: shown(abs), abs, mode, ...decide(await readTarget(area, abs)) });
  };

  const tracked = await committedFiles(root);
  const { guesses, leftOut } = guessExcludes(tracked, await attributeFiles(root, tracked));
  await add(join(root, CONFIG_FILE_NAME), 0o644, (state) => wholeFile(state, starterConfig(guesses, leftOut), request.force, 'kept'));
  if (request.github) {
    await add(join(root, '.github', 'workflows', 'jscr.yml'), 0o644, (state) => wholeFile(state, workflowFile(), request.force, 'conflict'));
  }
  if (request.claude) {
    await add(join(root, '.claude', CLAUDE_LOCAL_SETTINGS), 0o644, runsJscr((state) => {
      if (state.kind === 'refused') return { action: 'conflict', text: null, note: state.why };
      const merge = mergeGateHook(state.kind === 'file' ? state.text : null, request.jscr, request.force);
      if (merge.kind === 'conflict') return { action: 'conflict', text: null, note: `${merge.why}; not changed` };
      if (merge.kind === 'unchanged') return { action: 'unchanged', text: null, note: merge.why };
      return { action: state.kind === 'file' ? 'update' : 'create', text: merge.text, note: state.kind === 'file' ? 'the jscr gate hook added; everything else kept' : 'personal settings with this machine\'s jscr path: keep it out of commits (.gitignore)' };
    }));
  }
  if (request.prePush && area.hooksDir !== null) {
    await add(join(area.hooksDir, 'pre-push'), 0o755, runsJscr((state) => wholeFile(state, prePushHook(request.jscr), request.force, 'conflict')));
  }
  return { root, area, files };
}

/** Files the plan would write. */
export function filesToWrite(plan: InitPlan): PlannedFile[] {
  return plan.files.filter((f) => f.text !== null && (f.action === 'create' || f.action === 'replace' || f.action === 'update'));
}

/** Write the plan. The caller has checked there is no conflict. */
export async function applyInit(plan: InitPlan): Promise<void> {
  for (const file of filesToWrite(plan)) {
    if (file.text !== null) await writeTarget(plan.area, file.abs, file.text, file.mode);
  }
}
