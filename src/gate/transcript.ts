/**
 * Reading the session transcript (gate-reference §3): one bounded tail read, the current human
 * turn's id, and prior-search credit for a target the agent already looked up in this turn.
 */
import { sha256Hex } from './hash.js';
import { closeSync, fstatSync, openSync, readSync, constants } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { globMatches } from './glob.js';

export const TRANSCRIPT_TAIL_BYTES = 256 * 1024;
export const TRANSCRIPT_MAX_LINES = 2000;
export const MAX_SHELL_EVIDENCE = 8192;
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
export function targetStem(absolutePath: string, isTest: boolean): string {
  const name = absolutePath.slice(absolutePath.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  let stem = dot > 0 ? name.slice(0, dot) : name;
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

function isInside(target: string, scope: string): boolean {
  const rel = relative(scope, target);
  return rel.length === 0 || (!rel.startsWith('..') && !isAbsolute(rel));
}

function resultIsError(block: Json): boolean {
  if (block.is_error === true || block.is_error === 'true') return true;
  const content = block.content;
  const text = typeof content === 'string' ? content : Array.isArray(content) && isRecord(content[0]) && typeof content[0].text === 'string' ? content[0].text : '';
  return text.trimStart().startsWith('<tool_use_error>');
}

/** Does one search call credit the target? Returns its detail text, or null. */
function searchCredits(name: string, input: Json, stem: string, target: string, cwd: string): string | null {
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  if (name === 'Bash' || name === 'PowerShell') {
    const command = text(input.command);
    if (command.length === 0 || command.length > MAX_SHELL_EVIDENCE) return null;
    // ambiguous shell never credits: substitutions, heredocs, backticks, directory changes, exclusions
    for (const marker of ['$(', '`', '<<', '--exclude', ' -v ', 'cd ', 'pushd ']) if (command.includes(marker)) return null;
    return containsWholeWord(command.toLowerCase(), stem) ? command : null;
  }
  const pattern = text(input.pattern);
  const scopeText = text(input.path);
  const scope = scopeText.length > 0 ? resolve(cwd, scopeText) : cwd;
  if (!isInside(target, scope)) return null;
  if (name === 'Grep') {
    const include = text(input.glob).toLowerCase();
    if (include.startsWith('!')) return null;
    const base = target.slice(target.lastIndexOf('/') + 1).toLowerCase();
    if (include.length > 0 && !globMatches(include.includes('/') ? include : `**/${include}`, relative(scope, target).toLowerCase().replaceAll('\\', '/')) && !globMatches(include, base)) return null;
  }
  const evidence = `${pattern} ${scopeText}`.toLowerCase();
  return containsWholeWord(evidence, stem) ? `${pattern}${scopeText.length > 0 ? ` in ${scopeText}` : ''}` : null;
}

/**
 * Prior-search credit: a successful Glob, Grep, LS or shell search in this turn, from an earlier
 * assistant message than the pending call's own, that names the target's stem and covers its path.
 * Read never credits.
 */
export function findCredit(turn: Turn, target: string, isTest: boolean, cwd: string, pendingToolUseId: string | null): Credit | null {
  const stem = targetStem(target, isTest);
  if (stem.length < 4 || GENERIC_STEMS.has(stem)) return null;
  const uses: { id: string; name: string; input: Json; messageId: string | null }[] = [];
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
    for (let i = uses.length - 1; i >= 0 && pendingMessage === null; i--) pendingMessage = (uses[i] as (typeof uses)[number]).messageId;
  }
  for (let i = uses.length - 1; i >= 0; i--) {
    const use = uses[i] as (typeof uses)[number];
    if (!SEARCH_TOOLS.has(use.name) || use.messageId === null || use.messageId === pendingMessage) continue;
    if (idCounts.get(use.id) !== 1) continue;
    const result = results.get(use.id);
    if (result === undefined || resultIsError(result)) continue;
    const detail = searchCredits(use.name, use.input, stem, target, cwd);
    if (detail !== null) return { tool: use.name, detail, callsAgo: uses.length - i };
  }
  return null;
}
