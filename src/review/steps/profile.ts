/**
 * The change profile of each changed file (the same lexer the edit gate uses): a trivial change
 * (comments or whitespace only) gets no context expansion and is not sent to a model; a change to a
 * file's public surface brings the files that import it into the context bundle.
 */
import { posix } from 'node:path';
import type { DiffFile } from '../../git/diff.js';
import { profileChange, type ChangeProfile } from '../../profile/profile.js';
import { languageForPath, type Language } from '../../syntax/languages.js';
import { importCandidates, importLines } from '../context-bundle.js';
import type { SourceRead, SourceReader } from '../../git/sources.js';
import { unfinishedDetail } from '../deadline.js';
import { ranUnless, result, type ReviewStep } from './step.js';
import type { ReadFiles } from './read-files.js';

interface ProfiledFile {
  path: string;
  profile: ChangeProfile;
}

export interface Profiles {
  files: ProfiledFile[];
  /** Files whose change is comments or whitespace only: the rules scan them, a model is not shown them. */
  trivialPaths: ReadonlySet<string>;
}

export const profileStep: ReviewStep<'profile', { read_files: ReadFiles }, Profiles> = {
  name: 'profile',
  run: async ({ read_files }, { change, deadline }) => {
    const { profiled, unfinished } = await profileChangedFiles(read_files.readable, change.baseReader, deadline);
    const trivial = profiled.filter((p) => p.profile.known && p.profile.trivial);
    const surface = profiled.filter((p) => p.profile.known && p.profile.touchesPublicSurface).length;
    const detail = `${profiled.length} file(s): ${trivial.length} trivial (comments or whitespace only), ${surface} touching public surface`;
    // A file left unprofiled is simply not trivial: it keeps its context and its place in the material.
    const verdict = ranUnless(unfinished.length > 0 ? unfinishedDetail('the change profile', unfinished) : null, detail);
    return result(verdict, { files: profiled, trivialPaths: new Set(trivial.map((p) => p.path)) });
  },
  notRun: () => ({ files: [], trivialPaths: new Set() }),
};

/** At most this many importers per changed file join the bundle's candidates (its limits still apply). */
const MAX_IMPORTERS = 10;

/** Each diff hunk as the Edit a coding tool would have made: old side (context and removed) to new side. */
function hunksAsEdits(diff: DiffFile): { oldString: string; newString: string }[] {
  return diff.hunks.map((hunk) => {
    const oldLines: string[] = [];
    const newLines: string[] = [];
    for (const line of hunk.lines) {
      const text = line.text.replace(/\r$/, '');
      if (line.kind !== 'add') oldLines.push(text);
      if (line.kind !== 'del') newLines.push(text);
    }
    return { oldString: oldLines.join('\n'), newString: newLines.join('\n') };
  });
}

/**
 * Profile every readable changed file against its base text. A file with no base (added) is profiled
 * as a whole-file write, which is never trivial; anything the lexer is unsure of comes back unknown.
 */
async function profileChangedFiles(
  files: { diff: DiffFile; text: string }[],
  base: SourceReader | null,
  deadline: { expired(): boolean },
): Promise<{ profiled: ProfiledFile[]; unfinished: string[] }> {
  const withBase = files.filter((f) => f.diff.status !== 'added' && base !== null);
  const oldPaths = withBase.map((f) => f.diff.oldPath ?? f.diff.path);
  const reads = base === null ? new Map<string, SourceRead>() : await base.readMany(oldPaths);
  const profiled: ProfiledFile[] = [];
  const unfinished: string[] = [];
  for (const file of files) {
    if (deadline.expired()) {
      unfinished.push(file.diff.path);
      continue;
    }
    const read = reads.get(file.diff.oldPath ?? file.diff.path);
    const oldText = read && read.ok ? read.text.replaceAll('\r\n', '\n') : null;
    const profile =
      oldText === null || file.diff.status === 'added'
        ? profileChange({ kind: 'write', path: file.diff.path, content: file.text })
        : profileChange({ kind: 'edit', path: file.diff.path, edits: hunksAsEdits(file.diff), fileText: oldText });
    profiled.push({ path: file.diff.path, profile });
  }
  return { profiled, unfinished };
}

/** The name other files use to import this one (a module or class name), or null for languages we skip. */
function importedName(path: string, language: Language): string | null {
  const base = posix.basename(path).replace(/\.[^.]+$/, '');
  if (language === 'go' || base.length < 3 || base === 'index' || base === '__init__') return null;
  return base;
}

const PATHSPECS: Record<Language, string[]> = {
  python: ['*.py'],
  javascript: ['*.js', '*.jsx', '*.mjs', '*.cjs', '*.ts', '*.tsx'],
  typescript: ['*.ts', '*.tsx', '*.mts', '*.cts', '*.js', '*.jsx'],
  tsx: ['*.ts', '*.tsx', '*.js', '*.jsx'],
  java: ['*.java'],
  php: ['*.php'],
  go: ['*.go'],
  ruby: ['*.rb'],
};

/**
 * Files that import a changed file whose public surface changed: a literal search for its module name,
 * then only the files whose own imports really resolve to it.
 */
export async function findImporters(path: string, reader: SourceReader, files: ReadonlySet<string>): Promise<string[]> {
  const language = languageForPath(path);
  if (!language) return [];
  const name = importedName(path, language);
  if (!name) return [];
  const hits = (await reader.grepFiles(name, PATHSPECS[language])).filter((p) => p !== path);
  if (hits.length === 0) return [];
  const reads = await reader.readMany(hits.slice(0, MAX_IMPORTERS * 5));
  const importers: string[] = [];
  for (const [hitPath, read] of reads) {
    if (!read.ok) continue;
    const hitLanguage = languageForPath(hitPath);
    if (!hitLanguage) continue;
    const resolves = importLines(read.text).some((module) => importCandidates(hitPath, module, hitLanguage, files).includes(path));
    if (resolves) importers.push(hitPath);
    if (importers.length >= MAX_IMPORTERS) break;
  }
  return importers.sort();
}
