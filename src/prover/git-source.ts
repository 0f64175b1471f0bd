/**
 * Reading a revision's files straight from git's objects for `jscr prove` (the working tree need not be
 * checked out): `git ls-tree -r -z` for the list, one `git cat-file --batch` for the contents. Symbolic
 * links and submodules are skipped (a link could lead out of the repository); binary and oversized files
 * come back as refusals. The prover keeps its own small reader because libraries may not import the
 * review engine (SPEC 1 layering).
 */
import { runProgram } from '../policy/process.js';
import { decodeText } from '../policy/paths.js';

const GIT_TIMEOUT_MS = 120_000;

/** One file's text, or why it was not read. */
export type RevisionRead = { ok: true; path: string; text: string } | { ok: false; path: string; reason: 'too_large' | 'binary' | 'unreadable'; detail: string };

async function git(root: string, args: string[], input?: string): Promise<Buffer> {
  const result = await runProgram('git', ['-c', 'core.quotePath=false', ...args], { cwd: root, timeoutMs: GIT_TIMEOUT_MS, ...(input === undefined ? {} : { input }) });
  if (result.code !== 0) throw new Error(`git ${args[0] ?? ''} failed: ${result.spawnError ?? result.stderr.split('\n')[0] ?? `exit ${String(result.code)}`}`);
  return result.stdoutBytes;
}

/** Regular files of `rev` (path → blob id), sorted by path. */
export async function listRevision(root: string, rev: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const out = (await git(root, ['ls-tree', '-r', '-z', '--full-tree', rev])).toString('utf8');
  for (const line of out.split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, oid] = line.slice(0, tab).split(' ');
    if (type !== 'blob' || mode === '120000' || !oid) continue;
    files.set(line.slice(tab + 1), oid);
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Read the given files (path → blob id) in one `git cat-file --batch`. */
export async function readBlobs(root: string, files: ReadonlyMap<string, string>, maxBytes: number): Promise<RevisionRead[]> {
  if (files.size === 0) return [];
  const oids = [...new Set(files.values())];
  const bytes = await git(root, ['cat-file', '--batch'], oids.map((o) => `${o}\n`).join(''));
  const blobs = new Map<string, Buffer | 'too_large'>();
  let pos = 0;
  while (pos < bytes.length) {
    const eol = bytes.indexOf(0x0a, pos);
    if (eol < 0) break;
    const [oid, type, sizeText] = bytes.subarray(pos, eol).toString('utf8').split(' ');
    pos = eol + 1;
    if (!oid || type === 'missing' || sizeText === undefined) continue;
    const size = Number(sizeText);
    blobs.set(oid, size > maxBytes ? 'too_large' : bytes.subarray(pos, pos + size));
    pos += size + 1;
  }
  const out: RevisionRead[] = [];
  for (const [path, oid] of files) {
    const blob = blobs.get(oid);
    if (blob === undefined) out.push({ ok: false, path, reason: 'unreadable', detail: 'git could not read the object' });
    else if (blob === 'too_large') out.push({ ok: false, path, reason: 'too_large', detail: `larger than ${maxBytes} bytes` });
    else {
      const text = decodeText(blob);
      out.push(text === null ? { ok: false, path, reason: 'binary', detail: 'binary content' } : { ok: true, path, text });
    }
  }
  return out;
}
