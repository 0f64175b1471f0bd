/**
 * The proposal guard (seed D1-D12, SPEC 5-6): seventeen checks in a fixed order, first refusal wins.
 * `check` writes nothing; on acceptance it returns the exact bytes a guarded write would put on disk,
 * spliced here and nowhere else.
 */
import { lstat, realpath } from 'node:fs/promises';
import { dirname, join, relative, isAbsolute, sep } from 'node:path';
import type { Tree } from 'web-tree-sitter';
import { parse } from '../syntax/parser.js';
import type { Language } from '../syntax/languages.js';
import { compileResult } from './compile.js';
import { decodeStrict, detectEncoding, encode, firstUnencodable, withoutBom, type SupportedEncoding } from './encoding.js';
import { readRegularFileNoFollow, sha256 } from './fsutil.js';
import { guardLanguageForPath, GUARD_EXTENSIONS, type GuardLanguage } from './languages.js';
import { longestStatementTokens, runsPastItsRange } from './statements.js';
import { lineBody, lineEnding, splitLines } from './lines.js';
import { contextHolds, type Checked, type Consultation, type Proposal } from './shapes.js';
import { isCapabilityMember, memberReaches, moduleBindings } from './capabilities.js';
import { firstSyntaxError, importsInRows, namesInRows, treeDepthExceeds, type FoundImport, type RowRange } from './syntax.js';
import {
  EDIT_LINE_LIMIT,
  isDunder,
  isMachineryName,
  PURE_BUILTINS,
  REDACTION_MARKER,
  REPLACEMENT_BYTE_LIMIT,
  REPLACEMENT_STATEMENT_TOKENS,
  SYNTAX_DEPTH_LIMIT,
  type RefusalWord,
} from './refusal-words.js';


/** Options of `check`. */
export interface CheckOptions {
  /** Environment for python3 (PATH decides which python3 runs); defaults to this process's. */
  env?: NodeJS.ProcessEnv;
}

/** What the checks learn as they go; each later check may rely on what an earlier one set. */
interface Subject {
  consultation: Consultation;
  proposal: Proposal;
  root: string;
  env: NodeJS.ProcessEnv;
  language?: GuardLanguage;
  grammar?: Language;
  fileBytes?: Buffer;
  encoding?: SupportedEncoding;
  resultText?: string;
  resultBytes?: Buffer;
  /** Rows of the result that hold the replacement (empty when first > last). */
  replacementRows?: RowRange;
  /** The first line after the replacement in the result, if any. */
  nextLine?: string | null;
  resultTree?: Tree;
  originalTree?: Tree;
}

/** A check returns null when it passes, or a one-line detail saying which way it failed. */
type CheckRun = (subject: Subject) => Promise<string | null> | string | null;

interface GuardCheck {
  word: RefusalWord;
  run: CheckRun;
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`guard: ${what} was not prepared by an earlier check`);
  return value;
}

// ---------------------------------------------------------------- may this file be touched (1-4)

async function pathInsideRoot({ proposal, root }: Subject): Promise<string | null> {
  const path = proposal.path;
  if (path.length === 0) return 'the path is empty';
  if (path.includes('\0')) return 'the path holds a NUL character';
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) return `"${path}" is absolute; a relative path under the root is required`;
  if (path.includes('\\')) return `"${path}" holds a backslash; a relative POSIX path is required`;
  const parts = path.split('/');
  if (parts.includes('..')) return `"${path}" climbs out of the root through ".."`;
  if (parts.some((p) => p === '' || p === '.')) return `"${path}" is not a plain relative POSIX path (empty or "." component)`;
  // A directory on the way that is a symlink leading elsewhere is an escape too.
  let realRoot: string;
  let realParent: string;
  try {
    realRoot = await realpath(root);
    realParent = await realpath(dirname(join(root, path)));
  } catch {
    return null; // a directory that does not exist is an invented path, which check 3 names
  }
  const inside = relative(realRoot, realParent);
  if (inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) return `a directory on "${path}" leads outside the root through a symbolic link`;
  return null;
}

function pathSupportedLanguage(subject: Subject): string | null {
  const info = guardLanguageForPath(subject.proposal.path);
  if (!info) return `"${subject.proposal.path}" is not a file the guard checks (${GUARD_EXTENSIONS.join(' ')})`;
  subject.language = info.language;
  subject.grammar = info.grammar;
  return null;
}

async function pathIsTheConsultedFile({ proposal, consultation, root }: Subject): Promise<string | null> {
  const asked = consultation.context.path;
  if (proposal.path === asked) return null;
  const exists = await lstat(join(root, proposal.path)).then(
    () => true,
    () => false,
  );
  return exists
    ? `"${proposal.path}" is another file of the repository; the question was about "${asked}"`
    : `"${proposal.path}" does not exist (an invented file); the question was about "${asked}"`;
}

async function fileUnchangedSinceRead(subject: Subject): Promise<string | null> {
  const outcome = await readRegularFileNoFollow(join(subject.root, subject.proposal.path));
  if (!outcome.ok) {
    const label = outcome.reason === 'not_regular' ? 'unreadable' : outcome.reason;
    return `${label}: ${outcome.detail}`;
  }
  if (sha256(outcome.bytes) !== subject.consultation.context.file_sha256) return 'changed: its bytes are not the bytes the question was read from';
  subject.fileBytes = outcome.bytes;
  return null;
}

// ---------------------------------------------------------------- is this an answer to the question (5-8)

function insideTheContext({ proposal, consultation, fileBytes }: Subject): string | null {
  const { start_line: start, end_line: end } = proposal;
  const context = consultation.context;
  if (start > end) return `the range ${start}-${end} is empty or reversed`;
  if (!contextHolds(context, start, end)) return `lines ${start}-${end} are not inside the lines sent, ${context.start_line}-${context.end_line}`;
  const fileLines = splitLines(need(fileBytes, 'the file').toString('latin1')).length;
  if (end > fileLines) return `lines ${start}-${end} run past the end of the file (${fileLines} lines)`;
  return null;
}

function siteReplaced({ proposal, consultation }: Subject): string | null {
  const { start_line: start, end_line: end } = proposal;
  if (consultation.line < start || consultation.line > end) return `lines ${start}-${end} do not include line ${consultation.line}, the line asked about`;
  return null;
}

function symbolMatches({ proposal, consultation }: Subject): string | null {
  if (consultation.symbol === null || consultation.symbol === '') return 'the question named no symbol, so no answer can be about it';
  if (proposal.symbol !== consultation.symbol) return `the proposal is about "${proposal.symbol ?? ''}", the question about "${consultation.symbol}"`;
  return null;
}

/** Lines compared as the seed says: no trailing whitespace or line break, blank lines at the end dropped. */
function comparableLines(lines: readonly string[]): string[] {
  const trimmed = lines.map((l) => l.replace(/\s+$/, ''));
  while (trimmed.length > 0 && trimmed.at(-1) === '') trimmed.pop();
  return trimmed;
}

function replacedTextMatches({ proposal, consultation }: Subject): string | null {
  const context = consultation.context;
  const sent = splitLines(context.text);
  const span = context.end_line - context.start_line + 1;
  if (sent.length < span) return `the context holds ${sent.length} lines for a range of ${span}: its redaction joined lines, so no line number in it can be trusted`;
  if (sent.length > span) return `the context holds ${sent.length} lines for a range of ${span}, so its line numbers cannot be trusted`;
  const expected = comparableLines(sent.slice(proposal.start_line - context.start_line, proposal.end_line - context.start_line + 1));
  const quoted = comparableLines(splitLines(proposal.replaces));
  const length = Math.max(expected.length, quoted.length);
  for (let k = 0; k < length; k++) {
    if (expected[k] !== quoted[k]) {
      if (expected[k] === undefined) return `the quote has ${quoted.length} lines where lines ${proposal.start_line}-${proposal.end_line} hold ${expected.length}`;
      if (quoted[k] === undefined) return `the quote stops after ${quoted.length} lines; lines ${proposal.start_line}-${proposal.end_line} hold ${expected.length}`;
      return `quoted line ${proposal.start_line + k} is not the line that was sent`;
    }
  }
  return null;
}

// ---------------------------------------------------------------- is the result code that brings nothing in (9-17)

function replacementSmallEnough({ proposal, language }: Subject): string | null {
  const lines = splitLines(proposal.replacement).length;
  if (lines > EDIT_LINE_LIMIT) return `${lines} lines, over the limit of ${EDIT_LINE_LIMIT}`;
  const bytes = Buffer.byteLength(proposal.replacement, 'utf8');
  if (bytes > REPLACEMENT_BYTE_LIMIT) return `${bytes} bytes, over the limit of ${REPLACEMENT_BYTE_LIMIT}`;
  const tokens = longestStatementTokens(proposal.replacement, need(language, 'the language'));
  if (tokens > REPLACEMENT_STATEMENT_TOKENS) return `a statement of ${tokens} tokens, over the limit of ${REPLACEMENT_STATEMENT_TOKENS}`;
  return null;
}

/** Characters a terminal or an editor acts on rather than shows: C0 and C1 controls, DEL, bidi controls, line separators. */
function isActedOn(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0x2028 ||
    code === 0x2029
  );
}

function replacementDisplayable({ proposal }: Subject): string | null {
  const text = proposal.replacement;
  let line = 1;
  for (let k = 0; k < text.length; k++) {
    const code = text.charCodeAt(k);
    if (code === 0x0a) {
      line++;
      continue;
    }
    if (code === 0x09 || (code === 0x0d && text.charCodeAt(k + 1) === 0x0a)) continue;
    if (isActedOn(code)) return `U+${code.toString(16).toUpperCase().padStart(4, '0')} on its line ${line} is a character a terminal acts on`;
  }
  return null;
}

function countMarkers(text: string): number {
  return text.split(REDACTION_MARKER).length - 1;
}

function replacementCarriesNoRedaction({ proposal, fileBytes }: Subject): string | null {
  const echoed = countMarkers(proposal.replacement);
  if (echoed === 0) return null;
  // The marker is ASCII, so the file's bytes can be searched in any ASCII-compatible encoding.
  const replaced = splitLines(need(fileBytes, 'the file').toString('latin1')).slice(proposal.start_line - 1, proposal.end_line).join('');
  const present = countMarkers(replaced);
  if (echoed <= present) return null;
  return `it holds "${REDACTION_MARKER}" ${echoed} time(s) where the lines it replaces hold it ${present} time(s): it would write the placeholder where a secret stands`;
}

/** The replacement as lines to splice in, with the file's line endings. */
function replacementLines(replacement: string, eol: string, lastEnding: string): string[] {
  if (replacement === '') return [];
  const bodies = replacement.replace(/\r?\n$/, '').split('\n').map((l) => l.replace(/\r$/, ''));
  return bodies.map((body, k) => body + (k === bodies.length - 1 ? lastEnding : eol));
}

function replacementEncodable(subject: Subject): string | null {
  const { proposal } = subject;
  const bytes = need(subject.fileBytes, 'the file');
  const detected = detectEncoding(bytes, need(subject.language, 'the language'));
  if (detected.encoding === null) return `the file declares the encoding "${detected.declared}", which jscr cannot write back exactly`;
  const encoding = detected.encoding;
  const text = decodeStrict(withoutBom(bytes), encoding);
  if (text === null || !encode(text, encoding, detected.bom).equals(bytes)) return `the file's own bytes are not valid ${encoding}, so no text can be spliced into it exactly`;
  const lines = splitLines(text);
  const firstReplaced = lines[proposal.start_line - 1] ?? '';
  const lastReplaced = lines[proposal.end_line - 1] ?? '';
  const eol = lineEnding(firstReplaced) || lineEnding(lines[0] ?? '') || '\n';
  const inserted = replacementLines(proposal.replacement, eol, lineEnding(lastReplaced));
  const resultLines = [...lines.slice(0, proposal.start_line - 1), ...inserted, ...lines.slice(proposal.end_line)];
  const resultText = resultLines.join('');
  const bad = firstUnencodable(inserted.join(''), encoding);
  if (bad) return `U+${bad.codePoint.toString(16).toUpperCase().padStart(4, '0')} cannot be written in ${encoding}, the file's encoding`;
  const resultBytes = encode(resultText, encoding, detected.bom);
  const after = detectEncoding(resultBytes, need(subject.language, 'the language'));
  if (after.encoding !== encoding) return `it changes the file's declared encoding from "${detected.declared}" to "${after.declared}"`;
  subject.encoding = encoding;
  subject.resultText = resultText;
  subject.resultBytes = resultBytes;
  subject.replacementRows = { first: proposal.start_line - 1, last: proposal.start_line - 2 + inserted.length };
  const next = resultLines[proposal.start_line - 1 + inserted.length];
  subject.nextLine = next === undefined ? null : lineBody(next);
  return null;
}

async function outputCompiles(subject: Subject): Promise<string | null> {
  const verdict = await compileResult(
    need(subject.language, 'the language'),
    need(subject.resultBytes, 'the result'),
    need(subject.resultText, 'the result'),
    subject.proposal.path,
    subject.env,
  );
  return verdict.ok ? null : verdict.reason;
}

async function outputParses(subject: Subject): Promise<string | null> {
  const grammar = need(subject.grammar, 'the grammar');
  try {
    subject.resultTree = await parse(grammar, need(subject.resultText, 'the result'));
    const error = firstSyntaxError(subject.resultTree);
    if (error) return `tree-sitter reads ${error}`;
    if (treeDepthExceeds(subject.resultTree, SYNTAX_DEPTH_LIMIT)) return `nested more deeply than jscr reads (over ${SYNTAX_DEPTH_LIMIT} levels)`;
    const original = decodeStrict(withoutBom(need(subject.fileBytes, 'the file')), need(subject.encoding, 'the encoding')) ?? '';
    subject.originalTree = await parse(grammar, original);
    return null;
  } catch (error) {
    // A stack overflow or out-of-memory while reading the tree is a refusal, never a crash (seed D11).
    // (RangeError: the JS stack; RuntimeError: wasm traps such as running out of wasm memory.)
    if (error instanceof Error && (error instanceof RangeError || error.name === 'RuntimeError' || /memory|OOM/i.test(error.message))) {
      return `nested more deeply than jscr reads (${error.name}: ${error.message})`;
    }
    throw error;
  }
}

function replacementStaysInItsRange({ proposal, language, nextLine }: Subject): string | null {
  return runsPastItsRange(proposal.replacement, need(language, 'the language'), nextLine ?? null);
}

function importKey(found: FoundImport): string {
  return `${found.relative ? 'relative:' : ''}${found.module ?? `non-literal:${found.text}`}|${found.names.join(',')}`;
}

/** What divides a module from its submodules: `os.path`, `fs/promises`. */
function moduleSeparator(language: GuardLanguage): string {
  return language === 'python' ? '.' : '/';
}

function underLicence(module: string, licensed: readonly string[], separator: string): boolean {
  return licensed.some((target) => module === target || module.startsWith(target + separator));
}

function importsOnlyTheTarget(subject: Subject): string | null {
  const language = need(subject.language, 'the language');
  const { proposal, consultation } = subject;
  const before = importsInRows(need(subject.originalTree, 'the original tree'), { first: proposal.start_line - 1, last: proposal.end_line - 1 }, language);
  const after = importsInRows(need(subject.resultTree, 'the result tree'), need(subject.replacementRows, 'the rows'), language);
  const kept = new Map<string, number>();
  for (const found of before) kept.set(importKey(found), (kept.get(importKey(found)) ?? 0) + 1);
  const licensed = consultation.to_modules;
  const separator = moduleSeparator(language);
  for (const found of after) {
    const key = importKey(found);
    const left = kept.get(key) ?? 0;
    if (left > 0) {
      kept.set(key, left - 1); // the input already imported this; it is not new
      continue;
    }
    if (found.relative) return `"${found.text}" is a relative import, which is under no licensed module`;
    if (found.module === null) return `"${found.text}" imports a module that is not a literal name, which is under no licensed module`;
    const module = found.module;
    const allowed =
      underLicence(module, licensed, separator) ||
      (found.names.length > 0 && !found.names.includes('*') && found.names.every((n) => underLicence(`${module}.${n}`, licensed, separator)));
    if (!allowed) return `it imports "${module}", which is not among the licensed modules (${licensed.length > 0 ? licensed.join(', ') : 'none'})`;
  }
  return null;
}

function namesInsideTheQuestion(subject: Subject): string | null {
  const language = need(subject.language, 'the language');
  const { proposal } = subject;
  const before = namesInRows(need(subject.originalTree, 'the original tree'), { first: proposal.start_line - 1, last: proposal.end_line - 1 }, language);
  const after = namesInRows(need(subject.resultTree, 'the result tree'), need(subject.replacementRows, 'the rows'), language);
  const builtins = new Set(PURE_BUILTINS[language === 'python' ? 'python' : 'javascript']);
  // Only what the replaced lines read or bind licenses a read: `Image.open(path)` licenses no bare `open`.
  const licensed = (name: string): boolean => before.reads.has(name) || before.binds.has(name);
  // Turning a shell on needs no new name (`run(args)` → `run(cmd, shell=True)`); the replaced lines must already have it on.
  // A shell kept on may not be handed another literal command: each literal piece must be one the replaced lines gave it.
  const shellsBefore = new Map<string, Set<string>>();
  for (const call of before.shellCalls) shellsBefore.set(call.callee, new Set([...(shellsBefore.get(call.callee) ?? []), ...call.literals]));
  for (const { callee, line, literals } of after.shellCalls) {
    const given = shellsBefore.get(callee);
    if (!given) return `it turns on a shell for ${callee} (line ${line})`;
    const changed = literals.find((literal) => !given.has(literal));
    if (changed !== undefined) return `it gives the shell of ${callee} (line ${line}) a literal "${changed.slice(0, 40)}" the replaced lines did not give it`;
  }
  for (const [name, line] of after.reads) {
    if (isMachineryName(name, language)) return `it reads "${name}" (line ${line}), a dunder name`;
    if (licensed(name) || after.binds.has(name) || builtins.has(name)) continue;
    return `it reads "${name}" (line ${line}), which neither the replaced lines, a licensed import, the replacement itself nor a pure builtin provides`;
  }
  for (const [callee, line] of after.computedCalls) {
    // `x['constr' + 'uctor']` is a property no one can read here; calling it could be the Function constructor.
    return `it calls "${callee}" (line ${line}), a property whose name is computed, so it could be anything`;
  }
  for (const [read, { line, keyNames }] of after.computedReads) {
    // A computed read kept as the replaced lines made it is not new, unless the replacement rebinds its key.
    const kept = before.computedReads.has(read) && keyNames.every((n) => !after.binds.has(n) && !after.assigned.has(n));
    if (!kept) return `it reads "${read}" (line ${line}), a property whose name is computed and not a number, so it could be "constructor"`;
  }
  for (const [name, line] of after.attributes) {
    if (isMachineryName(name, language)) return `it reaches the attribute "${name}" (line ${line}), ${isDunder(name) ? 'a dunder name' : "a name of the language's machinery (a dunder without the underscores)"}`;
  }
  // A licensed module licenses its harmless members only: `os.path.join` licenses `os`, not `os.system`.
  const resultTree = need(subject.resultTree, 'the result tree');
  const bindings = moduleBindings(resultTree, language);
  for (const reach of memberReaches(resultTree, need(subject.replacementRows, 'the rows'), language)) {
    if (before.attributes.has(reach.name) || !isCapabilityMember(reach, bindings, language)) continue;
    // A module the question licenses (the fix's own target, `subprocess` for an `os.system` finding) may be used.
    const module = reach.root === null ? null : bindings.get(reach.root) ?? reach.root;
    if (module !== null && underLicence(module, subject.consultation.to_modules, moduleSeparator(language))) continue;
    return `it reaches "${reach.root === null ? '' : `${reach.root}.`}${reach.name}" (line ${reach.line}), a member that runs a process, evaluates code or changes files, which the replaced lines did not reach`;
  }
  return null;
}

/** The seventeen checks, in the order of the words (seed D1). The first that fails is the refusal. */
const checks: readonly GuardCheck[] = [
  { word: 'path_outside_root', run: pathInsideRoot },
  { word: 'path_not_supported_language', run: pathSupportedLanguage },
  { word: 'path_not_the_consulted_file', run: pathIsTheConsultedFile },
  { word: 'file_changed_since_read', run: fileUnchangedSinceRead },
  { word: 'outside_the_context', run: insideTheContext },
  { word: 'site_not_replaced', run: siteReplaced },
  { word: 'symbol_mismatch', run: symbolMatches },
  { word: 'replaced_text_differs', run: replacedTextMatches },
  { word: 'replacement_too_large', run: replacementSmallEnough },
  { word: 'replacement_not_displayable', run: replacementDisplayable },
  { word: 'replacement_carries_redaction', run: replacementCarriesNoRedaction },
  { word: 'replacement_not_encodable', run: replacementEncodable },
  { word: 'output_does_not_compile', run: outputCompiles },
  { word: 'output_does_not_parse', run: outputParses },
  { word: 'replacement_runs_past_its_range', run: replacementStaysInItsRange },
  { word: 'import_outside_the_target', run: importsOnlyTheTarget },
  { word: 'name_outside_the_question', run: namesInsideTheQuestion },
];

/** The words in the order the checks run (a test pins it to the vocabulary). */
export const CHECK_ORDER: readonly RefusalWord[] = checks.map((c) => c.word);

/**
 * Check one proposal against the consultation it answers, reading the file under `root`. Writes
 * nothing. Only the first refusal is recorded.
 */
export async function check(consultation: Consultation, proposal: Proposal, root: string, options: CheckOptions = {}): Promise<Checked> {
  const subject: Subject = { consultation, proposal, root, env: options.env ?? process.env };
  try {
    for (const { word, run } of checks) {
      const detail = await run(subject);
      if (detail !== null) return { proposal, refusal: word, detail: oneLine(detail), resultBytes: null, result_sha256: null };
    }
    const resultBytes = need(subject.resultBytes, 'the result');
    const inserted = splitLines(proposal.replacement).length;
    return {
      proposal,
      refusal: null,
      detail: `accepted: lines ${proposal.start_line}-${proposal.end_line} replaced by ${inserted} line(s)`,
      resultBytes,
      result_sha256: sha256(resultBytes),
    };
  } finally {
    subject.resultTree?.delete();
    subject.originalTree?.delete();
  }
}

/** A detail is one line whatever the proposal quoted into it (a path may hold a line break). */
function oneLine(detail: string): string {
  return detail.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The Checked as the JSON object `jscr guard` prints and run folders store (SPEC 6). */
export function checkedToJson(checked: Checked): Record<string, unknown> {
  return {
    refusal: checked.refusal,
    detail: checked.detail,
    result_sha256: checked.result_sha256,
    proposal: checked.proposal,
    result_bytes_base64: checked.resultBytes ? checked.resultBytes.toString('base64') : null,
  };
}
