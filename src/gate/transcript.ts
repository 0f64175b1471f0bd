/**
 * Reading the session transcript (gate-reference §3): one bounded tail read, the current human
 * turn's id, and prior-search credit for a target the agent already looked up in this turn.
 */
import { sha256Hex } from './hash.js';
import { closeSync, fstatSync, openSync, readSync, constants } from 'node:fs';
import { relative, resolve } from 'node:path';
import { globMatches } from './glob.js';
import { isInsideDir } from './classify.js';

const TRANSCRIPT_TAIL_BYTES = 256 * 1024;
const TRANSCRIPT_MAX_LINES = 2000;
const MAX_SHELL_EVIDENCE = 8192;
/** The longest Grep include glob judged (gate-reference §8). */
const MAX_INCLUDE_GLOB = 256;
const SEARCH_TOOLS = new Set(['Glob', 'Grep', 'LS', 'Bash', 'PowerShell']);
const GENERIC_STEMS = new Set([
  'index', 'main', 'init', '__init__', 'utils', 'util', 'types', 'readme', 'test', 'tests', 'config', 'mod', 'lib',
  'setup', 'app', 'spec', 'helpers', 'common',
]);

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The transcript's last records, parsed (malformed lines skipped); `clipped` when older lines were left out. */
export function readTranscriptTail(path: string): { records: { record: Json; line: string }[]; clipped: boolean } | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return null;
    const length = Math.min(stat.size, TRANSCRIPT_TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, stat.size - length + read);
      if (n === 0) break;
      read += n;
    }
    let lines = buffer.toString('utf8', 0, read).split('\n');
    let clipped = stat.size > length;
    if (clipped) lines = lines.slice(1); // the first line is probably cut
    if (lines.length > TRANSCRIPT_MAX_LINES) {
      lines = lines.slice(-TRANSCRIPT_MAX_LINES);
      clipped = true;
    }
    const records: { record: Json; line: string }[] = [];
    for (const line of lines) {
      if (line.trim().length === 0) continue;
      try {
        const parsed: unknown = JSON.parse(line);
        if (isRecord(parsed)) records.push({ record: parsed, line });
      } catch {
        // a partial or foreign line
      }
    }
    return { records, clipped };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function contentBlocks(record: Json): Json[] {
  const message = record.message;
  if (!isRecord(message) || !Array.isArray(message.content)) return [];
  return message.content.filter(isRecord);
}

function isHumanTurnStart(record: Json): boolean {
  if (record.isCompactSummary === true) return true;
  if (record.type === 'system' && record.subtype === 'compact_boundary') return true;
  if (record.type !== 'user') return false;
  const message = record.message;
  if (!isRecord(message)) return false;
  if (typeof message.content === 'string') return true;
  const blocks = contentBlocks(record);
  return blocks.length > 0 && blocks.some((b) => b.type !== 'tool_result');
}

/** The current turn: its id (or null) and its records, oldest first. */
export interface Turn {
  id: string | null;
  records: Json[];
}

export function currentTurn(tail: { records: { record: Json; line: string }[]; clipped: boolean }): Turn {
  const relevant = tail.records.filter(({ record }) => record.isSidechain !== true && record.isMeta !== true);
  for (let i = relevant.length - 1; i >= 0; i--) {
    const { record, line } = relevant[i] as { record: Json; line: string };
    if (!isHumanTurnStart(record)) continue;
    let id: string;
    if (typeof record.promptId === 'string' && record.promptId.length > 0 && record.promptId.length <= 128) id = record.promptId;
    else if (typeof record.uuid === 'string' && record.uuid.length > 0 && record.uuid.length <= 128) id = record.uuid;
    else id = `h:${sha256Hex(line).slice(0, 16)}`;
    return { id, records: relevant.slice(i + 1).map((r) => r.record) };
  }
  const records = relevant.map((r) => r.record);
  if (!tail.clipped) return { id: null, records };
  const promptIds = new Set(records.map((r) => r.promptId).filter((p): p is string => typeof p === 'string'));
  const only = [...promptIds][0];
  return { id: promptIds.size === 1 && only !== undefined && only.length <= 128 ? only : null, records };
}

/** A search the agent ran in this turn that may credit the target. */
export interface Credit {
  tool: string;
  detail: string;
  callsAgo: number;
}

/** The stem a search must name: the base name without its extension (and, for tests, one affix). */
function targetStem(absolutePath: string, isTest: boolean): string {
  const name = absolutePath.slice(absolutePath.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  if (isTest) {
    for (const suffix of ['.test', '.spec', '_test']) {
      if (stem.endsWith(suffix)) return stem.slice(0, -suffix.length);
    }
    if (stem.startsWith('test_')) return stem.slice(5);
  }
  return stem;
}

function containsWholeWord(haystack: string, word: string): boolean {
  const isWordChar = (ch: string | undefined): boolean => ch !== undefined && /^[a-z0-9_]$/.test(ch);
  for (let from = haystack.indexOf(word); from >= 0; from = haystack.indexOf(word, from + 1)) {
    if (!isWordChar(haystack[from - 1]) && !isWordChar(haystack[from + word.length])) return true;
  }
  return false;
}

function resultIsError(block: Json): boolean {
  if (block.is_error === true || block.is_error === 'true') return true;
  const content = block.content;
  const text = typeof content === 'string' ? content : Array.isArray(content) && isRecord(content[0]) && typeof content[0].text === 'string' ? content[0].text : '';
  return text.trimStart().startsWith('<tool_use_error>');
}

/** Programs whose run is a search of the tree (a Read-like `cat` or `sed` is not). */
const SHELL_SEARCH_PROGRAMS = new Set([
  'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'find', 'fd', 'fdfind', 'ls', 'tree', 'locate',
  'select-string', 'sls', 'get-childitem', 'gci', 'dir',
]);
/** Of those, the ones whose first operand is a pattern, not a path. */
const PATTERN_FIRST = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'fd', 'fdfind', 'locate', 'select-string', 'sls']);
/** Programs a search may be wrapped in. */
const SHELL_WRAPPERS = new Set(['sudo', 'command', 'time', 'nice', 'env']);

/** The directory part of an operand before its first wildcard (`src/*.py` → `src/`). */
function globBase(operand: string): string {
  let wild = operand.length;
  for (const ch of ['*', '?', '[']) {
    const at = operand.indexOf(ch);
    if (at >= 0 && at < wild) wild = at;
  }
  return wild === operand.length ? operand : operand.slice(0, operand.lastIndexOf('/', wild) + 1) || '.';
}

function unquote(word: string): string {
  return word.length >= 2 && (word[0] === '"' || word[0] === "'") && word[word.length - 1] === word[0] ? word.slice(1, -1) : word;
}

/** Why a call that named the target did not count, most telling first (gate-reference §3, "Closest miss"). */
const NEAR_MISS_CODES = ['same-batch', 'excluded', 'out-of-scope', 'stdin-only', 'not-a-search', 'generic-stem'] as const;
export type NearMissCode = (typeof NEAR_MISS_CODES)[number];

/** How one call reads as evidence for one target. */
type Evidence = 'credit' | 'no-mention' | Exclude<NearMissCode, 'same-batch' | 'generic-stem'>;

/**
 * How a shell command reads as a search for the target. Each segment between `;`, `&&`, `||` and `|`
 * is read alone: a segment fed by a pipe searches its input, not the tree (stdin-only); a segment must
 * run a search program (git grep and git ls-files count), name the word as a whole word, and have the
 * target inside one of its path operands (or the cwd when it has none). Inversions and exclusions
 * never count. The best reading over all segments wins.
 */
function shellEvidence(command: string, word: string, target: string, cwd: string): Evidence {
  const segments: { text: string; piped: boolean }[] = [];
  let start = 0;
  let piped = false;
  for (let i = 0; i <= command.length; i++) {
    const ch = command[i];
    const next = command[i + 1];
    if (i === command.length || ch === ';' || ch === '\n' || ch === '&' || ch === '|') {
      segments.push({ text: command.slice(start, i), piped });
      const double = (ch === '&' || ch === '|') && next === ch;
      piped = ch === '|' && !double;
      if (double) i++;
      start = i + 1;
    }
  }
  let best: Evidence = 'no-mention';
  const rank: Record<Evidence, number> = { credit: 0, excluded: 1, 'out-of-scope': 2, 'stdin-only': 3, 'not-a-search': 4, 'no-mention': 5 };
  const consider = (evidence: Evidence): void => {
    if (rank[evidence] < rank[best]) best = evidence;
  };
  for (const segment of segments) {
    if (!containsWholeWord(segment.text.toLowerCase(), word)) continue;
    const words = segment.text.trim().split(/\s+/).filter((w) => w.length > 0).map(unquote);
    let at = 0;
    while (at < words.length && (SHELL_WRAPPERS.has((words[at] as string).toLowerCase()) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[at] as string))) at++;
    let program = (words[at] ?? '').toLowerCase();
    program = program.slice(program.lastIndexOf('/') + 1);
    if (program === 'git' && (words[at + 1] === 'grep' || words[at + 1] === 'ls-files')) {
      program = words[at + 1] === 'grep' ? 'grep' : 'ls';
      at++;
    }
    if (!SHELL_SEARCH_PROGRAMS.has(program)) {
      consider('not-a-search');
      continue;
    }
    if (segment.piped) {
      consider('stdin-only');
      continue;
    }
    const args = words.slice(at + 1);
    if (args.some((a) => a === '-v' || a === '--invert-match' || a === '-not' || a === '!' || a.startsWith('--glob=!') || a.startsWith('-g!'))) {
      consider('excluded');
      continue;
    }
    const operands = args.filter((a) => !a.startsWith('-') && !a.startsWith('('));
    const hasPatternOption = args.some((a) => a.startsWith('-e') || a === '--regexp' || a.toLowerCase() === '-pattern');
    // find's paths stop at its first expression; the pattern of a grep-like tool is not a path
    const firstExpression = args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
    let paths = program === 'find' && firstExpression >= 0 ? args.slice(0, firstExpression) : operands;
    if (PATTERN_FIRST.has(program) && !hasPatternOption) paths = paths.slice(1);
    if (paths.some((p) => p.startsWith('~') || p.includes('$'))) {
      consider('out-of-scope');
      continue;
    }
    const scopes = paths.length === 0 ? [cwd] : paths.map((p) => resolve(cwd, globBase(p)));
    consider(scopes.some((scope) => isInsideDir(target, scope)) ? 'credit' : 'out-of-scope');
  }
  return best;
}

/** How one Glob, Grep, LS or shell call reads as a search for the target, judged on `word`. */
function searchEvidence(name: string, input: Json, word: string, target: string, cwd: string): Evidence {
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  if (name === 'Bash' || name === 'PowerShell') {
    const command = text(input.command);
    if (command.length === 0 || command.length > MAX_SHELL_EVIDENCE) return 'no-mention';
    const lower = command.toLowerCase();
    if (!containsWholeWord(lower, word)) return 'no-mention';
    // ambiguous shell never credits: substitutions, heredocs, backticks, directory changes, exclusions
    for (const marker of ['$(', '`', '<<', 'cd ', 'pushd ', 'set-location', 'sl ']) if (lower.includes(marker)) return 'not-a-search';
    if (lower.includes('--exclude') || lower.includes(' -v ')) return 'excluded';
    return shellEvidence(command, word, target, cwd);
  }
  if (!SEARCH_TOOLS.has(name)) {
    // Read and other tools: a mention of the file is not a search for it
    const mentioned = ['file_path', 'path', 'pattern', 'notebook_path'].some((key) => containsWholeWord(text(input[key]).toLowerCase(), word));
    return mentioned ? 'not-a-search' : 'no-mention';
  }
  const pattern = text(input.pattern);
  const scopeText = text(input.path);
  if (!containsWholeWord(`${pattern} ${scopeText}`.toLowerCase(), word)) return 'no-mention';
  const scope = scopeText.length > 0 ? resolve(cwd, scopeText) : cwd;
  if (!isInsideDir(target, scope)) return 'out-of-scope';
  if (name === 'Grep') {
    const include = text(input.glob).toLowerCase();
    // a filter too long to judge cheaply may exclude the target: it never credits
    if (include.startsWith('!') || include.length > MAX_INCLUDE_GLOB) return 'excluded';
    const base = target.slice(target.lastIndexOf('/') + 1).toLowerCase();
    if (include.length > 0 && !globMatches(include.includes('/') ? include : `**/${include}`, relative(scope, target).toLowerCase().replaceAll('\\', '/')) && !globMatches(include, base)) return 'excluded';
  }
  return 'credit';
}

function detailOf(name: string, input: Json): string {
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  if (name === 'Bash' || name === 'PowerShell') return text(input.command);
  if (!SEARCH_TOOLS.has(name)) return text(input.file_path) || text(input.path) || text(input.pattern);
  const scopeText = text(input.path);
  return `${text(input.pattern)}${scopeText.length > 0 ? ` in ${scopeText}` : ''}`;
}

interface ToolUse {
  id: string;
  name: string;
  input: Json;
  messageId: string | null;
}

/** The turn's tool calls with their results, and the message the pending call belongs to. */
function callsOf(turn: Turn, pendingToolUseId: string | null): { uses: ToolUse[]; results: Map<string, Json>; idCounts: Map<string, number>; pendingMessage: string | null } {
  const uses: ToolUse[] = [];
  const results = new Map<string, Json>();
  const idCounts = new Map<string, number>();
  for (const record of turn.records) {
    const message = record.message;
    const messageId = isRecord(message) && typeof message.id === 'string' ? message.id : null;
    for (const block of contentBlocks(record)) {
      if (record.type === 'assistant' && block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
        uses.push({ id: block.id, name: block.name, input: isRecord(block.input) ? block.input : {}, messageId });
        idCounts.set(block.id, (idCounts.get(block.id) ?? 0) + 1);
      }
      if (record.type === 'user' && block.type === 'tool_result' && typeof block.tool_use_id === 'string') results.set(block.tool_use_id, block);
    }
  }
  let pendingMessage: string | null = null;
  const pending = pendingToolUseId === null ? undefined : uses.find((u) => u.id === pendingToolUseId);
  if (pending !== undefined) pendingMessage = pending.messageId;
  else {
    for (let i = uses.length - 1; i >= 0 && pendingMessage === null; i--) pendingMessage = (uses[i] as ToolUse).messageId;
  }
  return { uses, results, idCounts, pendingMessage };
}

/**
 * The words a search may name to credit the target: its stem, and the functions and classes the edit
 * changes (what the local-callers question asks the agent to look up), lowercased, each long and
 * specific enough to be a real search.
 */
function creditWords(stem: string, changedNames: readonly string[]): string[] {
  const words: string[] = [];
  for (const word of [stem, ...changedNames.map((name) => name.toLowerCase())]) {
    if (word.length >= 4 && !GENERIC_STEMS.has(word) && !words.includes(word)) words.push(word);
  }
  return words;
}

/**
 * Prior-search credit: a successful Glob, Grep, LS or shell search in this turn, from an earlier
 * assistant message than the pending call's own, that names the target's stem (or a function or
 * class the edit changes) and covers its path.
 * Read never credits.
 */
export function findCredit(turn: Turn, target: string, isTest: boolean, cwd: string, pendingToolUseId: string | null, changedNames: readonly string[] = []): Credit | null {
  const words = creditWords(targetStem(target, isTest), changedNames);
  if (words.length === 0) return null;
  const { uses, results, idCounts, pendingMessage } = callsOf(turn, pendingToolUseId);
  for (let i = uses.length - 1; i >= 0; i--) {
    const use = uses[i] as ToolUse;
    if (!SEARCH_TOOLS.has(use.name) || use.messageId === null || use.messageId === pendingMessage) continue;
    if (idCounts.get(use.id) !== 1) continue;
    const result = results.get(use.id);
    if (result === undefined || resultIsError(result)) continue;
    if (words.some((word) => searchEvidence(use.name, use.input, word, target, cwd) === 'credit')) return { tool: use.name, detail: detailOf(use.name, use.input), callsAgo: uses.length - i };
  }
  return null;
}

/** The call in this turn that came closest to crediting the target, and why it did not. */
export interface NearMiss {
  tool: string;
  detail: string;
  why: NearMissCode;
}

/**
 * On an ordinary denial: the call of this turn that named the target but did not count, with the most
 * telling reason (the order of NEAR_MISS_CODES), so the agent learns why its search was not enough.
 */
export function findNearMiss(turn: Turn, target: string, isTest: boolean, cwd: string, pendingToolUseId: string | null): NearMiss | null {
  const stem = targetStem(target, isTest);
  const generic = stem.length < 4 || GENERIC_STEMS.has(stem);
  const { uses, results, pendingMessage } = callsOf(turn, pendingToolUseId);
  let best: NearMiss | null = null;
  const rankOf = (why: NearMissCode): number => NEAR_MISS_CODES.indexOf(why);
  for (let i = uses.length - 1; i >= 0; i--) {
    const use = uses[i] as ToolUse;
    if (use.id === pendingToolUseId || stem.length === 0) continue;
    const result = results.get(use.id);
    const sameBatch = use.messageId !== null && use.messageId === pendingMessage;
    if (!sameBatch && (result === undefined || resultIsError(result))) continue;
    const evidence = searchEvidence(use.name, use.input, stem, target, cwd);
    if (evidence === 'no-mention') continue;
    let why: NearMissCode;
    if (sameBatch && SEARCH_TOOLS.has(use.name)) why = 'same-batch';
    else if (evidence !== 'credit') why = evidence;
    else if (generic) why = 'generic-stem';
    else continue; // it would have counted but for a missing message id or a repeated call id: no advice to give

    if (best === null || rankOf(why) < rankOf(best.why)) best = { tool: use.name, detail: detailOf(use.name, use.input), why };
  }
  return best;
}
