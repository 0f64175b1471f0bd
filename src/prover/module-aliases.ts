/**
 * JavaScript and TypeScript imports through a project alias or a workspace package, resolved without
 * reading any build configuration: `@/lib/auth` (a tsconfig `paths` entry), `~/utils/session`,
 * `#app/models`, `@server/models` (an alias that looks like a scope) and `@acme/lib/server/users` (a
 * package of the same monorepo). Next.js, Remix and monorepo apps import almost every helper this way,
 * so a check written in the project's own wrapper (`export const POST = withAdmin(...)`) is read only
 * when its module is found.
 *
 * The specifier's path after the alias names a file by its tail: the repository's JS/TS files whose
 * path (without extension, or without `/index.ext`) ends with that tail are candidates, a workspace
 * package's `src/` folder allowed, and the ones nearest the importing file (longest shared folder
 * prefix) win, so `apps/web`'s `@/lib/auth` is not `apps/admin`'s. A single bare segment (`utils`)
 * and a library-looking bare path (`next/server`) are never guessed: only aliased and scoped forms.
 */
import type { ProgramFile } from './types.js';

const SCRIPT_IMPORTER = /\.(?:[cm]?[jt]sx?|vue|svelte)$/;
const SCRIPT_FILE = /\.(?:[cm]?[jt]sx?)$/;
/** `@/x`, `~/x`, `#/x`, `@@/x`, `$/x`: an alias for a project folder. */
const FOLDER_ALIAS = /^(?:@@?|~|#|\$)\/(.+)$/;
/** `#app/x` (package.json subpath imports). */
const HASH_ALIAS = /^#([\w-][\w.-]*\/.+)$/;
/** `@scope/name/...`: an alias shaped like a scope (`@server/models`) or a workspace package. */
const SCOPED = /^@([\w-][\w.-]*)\/([\w-][\w.-]*)(?:\/(.+))?$/;

/** Files by the name their import tail ends with (the file's base name, or its folder's for an index). */
type TailIndex = Map<string, { file: ProgramFile; stem: string }[]>;

const indexes = new WeakMap<readonly ProgramFile[], TailIndex>();

function tailIndex(files: readonly ProgramFile[]): TailIndex {
  let index = indexes.get(files);
  if (index) return index;
  index = new Map();
  for (const file of files) {
    if (!SCRIPT_FILE.test(file.path)) continue;
    const stem = file.path.replace(SCRIPT_FILE, '').replace(/\/index$/, '');
    const last = stem.slice(stem.lastIndexOf('/') + 1);
    const list = index.get(last);
    if (list) list.push({ file, stem });
    else index.set(last, [{ file, stem }]);
  }
  indexes.set(files, index);
  return index;
}

/** Folders a workspace package lives in (`packages/lib`, `apps/api`): the only places a scoped import is looked for. */
const WORKSPACE_FOLDERS = new Set(['packages', 'libs', 'apps', 'modules', 'services', 'plugins']);

/** One reading of a specifier: the path tail it names and where in the repository that tail may sit. */
interface Tail {
  tail: string;
  /**
   * `near`: under a folder holding the importer (or its `src`/`app`); `root`: at the top of the
   * repository or of the importer's workspace package (an alias shaped like a scope, `@server/*`);
   * `workspace`: in a package folder.
   */
  where: 'near' | 'root' | 'workspace';
}

/** The readings of an aliased or scoped specifier, most literal first; none for other forms. */
export function aliasTails(specifier: string): Tail[] {
  const clean = specifier.replace(/\.(?:[cm]?[jt]sx?)$/, '').replace(/\/$/, '');
  const folder = FOLDER_ALIAS.exec(clean) ?? HASH_ALIAS.exec(clean);
  if (folder?.[1]) return [{ tail: folder[1], where: 'near' }];
  const scoped = SCOPED.exec(clean);
  if (!scoped?.[1] || !scoped[2]) return [];
  const [, scope, name, rest] = scoped;
  // `@server/models` → server/models beside the importer; `@acme/lib/users` → packages/lib/(src/)users.
  const tails: Tail[] = [{ tail: `${scope}/${name}${rest ? `/${rest}` : ''}`, where: 'root' }];
  if (rest) tails.push({ tail: `${name}/${rest}`, where: 'workspace' }, { tail: `${name}/src/${rest}`, where: 'workspace' });
  else tails.push({ tail: `${name}/src`, where: 'workspace' }, { tail: `${name}`, where: 'workspace' });
  return tails;
}

/** The folders that hold `path`: '', 'apps', 'apps/web', ... */
function ancestors(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i).join('/')).concat(parts.join('/'));
}

/** The repository's top and, for a file of a workspace package (`apps/web/...`), that package's folder. */
function packageRoots(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  for (let i = parts.length - 2; i >= 0; i--) if (WORKSPACE_FOLDERS.has(parts[i] ?? '')) return ['', parts.slice(0, i + 2).join('/')];
  return [''];
}

/** `packages/lib/server-only/users` for the tail `lib/server-only/users`: the tail right below a workspace folder. */
function inWorkspace(stem: string, tail: string): boolean {
  if (stem !== tail && !stem.endsWith(`/${tail}`)) return false;
  const above = stem.slice(0, stem.length - tail.length).replace(/\/$/, '');
  return WORKSPACE_FOLDERS.has(above.slice(above.lastIndexOf('/') + 1));
}

function allowed(stem: string, reading: Tail, importer: string): boolean {
  if (reading.where === 'workspace') return inWorkspace(stem, reading.tail);
  const bases = reading.where === 'near' ? ancestors(importer) : packageRoots(importer);
  return bases.some((dir) => ['', '/src', '/app'].some((sub) => {
    const base = `${dir}${sub}`.replace(/^\//, '');
    return stem === (base === '' ? reading.tail : `${base}/${reading.tail}`);
  }));
}

function sharedPrefix(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  let n = 0;
  while (n < left.length - 1 && n < right.length - 1 && left[n] === right[n]) n++;
  return n;
}

/** The files an aliased import of `fromPath` names, nearest first; empty when the form is not an alias. */
export function aliasedModuleFiles(files: readonly ProgramFile[], fromPath: string, specifier: string): ProgramFile[] {
  if (!SCRIPT_IMPORTER.test(fromPath)) return [];
  const index = tailIndex(files);
  for (const reading of aliasTails(specifier)) {
    const last = reading.tail.slice(reading.tail.lastIndexOf('/') + 1);
    const matches = (index.get(last) ?? []).filter(({ stem }) => allowed(stem, reading, fromPath));
    if (matches.length === 0) continue;
    const best = Math.max(...matches.map(({ file }) => sharedPrefix(file.path, fromPath)));
    return matches.filter(({ file }) => sharedPrefix(file.path, fromPath) === best).map(({ file }) => file);
  }
  return [];
}

const STAR_EXPORT = /^export\s*\*\s*(?:as\s+[A-Za-z_$][\w$]*\s*)?from\s*['"]([^'"]+)['"]/gm;
const NAMED_EXPORT = /^export\s*(?:type\s*)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/gm;

/** The modules a barrel passes `name` on from: `export * from './admin'`, `export { withAdmin } from './admin'`. */
export function reExportSources(file: ProgramFile, name: string): string[] {
  if (!SCRIPT_FILE.test(file.path) || !file.text.includes('export')) return [];
  const out: string[] = [];
  for (const match of file.text.matchAll(STAR_EXPORT)) if (match[1]) out.push(match[1]);
  for (const match of file.text.matchAll(NAMED_EXPORT)) {
    const names = (match[1] ?? '').split(',').map((part) => part.trim().split(/\s+as\s+/).pop()?.trim());
    if (match[2] && names.includes(name)) out.push(match[2]);
  }
  return out;
}
