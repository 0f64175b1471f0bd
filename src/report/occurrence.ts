/**
 * Where each finding sits, for its version 2 fingerprint (docs/adr/0020): the qualified name of the
 * innermost function around its line ('' outside any function), and which copy of its code it is in
 * that function: copies are counted in the file's text, not among findings, so the index does not
 * change when an earlier copy is out of the review's scope or suppressed, nor when other code changes.
 */
import type { Finding } from './finding.js';
import { atOccurrence, normaliseEvidence } from './fingerprint.js';

/** A function's name and lines, as the syntax step's IR gives them. */
export interface ScopeSpan {
  qualifiedName: string;
  startLine: number;
  endLine: number;
}

/** A file's text and its functions. */
export interface OccurrenceFile {
  text: string;
  scopes: readonly ScopeSpan[];
}

/** Copies are compared on at most this many lines of a finding's span. */
const MAX_SPAN_LINES = 20;

/** Synthetic names such as `<lambda@L12>` carry a line number; without it the name survives a move. */
function stableName(qualifiedName: string): string {
  return qualifiedName.replace(/@L\d+>/g, '>');
}

/** One file's lines (normalised) and, per line, the scope it belongs to and where its text recurs. */
class FileIndex {
  private readonly lines: string[];
  private readonly scopeOfLine: string[];
  /** scope + first line text → the 1-based lines holding that text in that scope, ascending. */
  private readonly starts = new Map<string, number[]>();

  constructor(file: OccurrenceFile) {
    this.lines = file.text.split('\n').map((line) => normaliseEvidence(line));
    // innermost wins: later-starting functions are nested in (or follow) earlier ones
    const spans = [...file.scopes].sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
    this.scopeOfLine = this.lines.map(() => '');
    for (const span of spans) {
      const name = stableName(span.qualifiedName);
      for (let line = Math.max(1, span.startLine); line <= Math.min(span.endLine, this.lines.length); line++) this.scopeOfLine[line - 1] = name;
    }
    this.lines.forEach((text, i) => {
      const key = `${this.scopeOfLine[i] ?? ''}\0${text}`;
      const list = this.starts.get(key);
      if (list === undefined) this.starts.set(key, [i + 1]);
      else list.push(i + 1);
    });
  }

  has(line: number): boolean {
    return line >= 1 && line <= this.lines.length;
  }

  /** The scope of `line` and how many copies of the span line..endLine come before it in that scope. */
  place(line: number, endLine: number): { scope: string; index: number } {
    const scope = this.scopeOfLine[line - 1] ?? '';
    const span = Math.min(MAX_SPAN_LINES, Math.max(1, endLine - line + 1));
    const text = this.lines.slice(line - 1, line - 1 + span);
    const candidates = this.starts.get(`${scope}\0${text[0] ?? ''}`) ?? [];
    let index = 0;
    for (const start of candidates) {
      if (start >= line) break;
      if (text.every((t, k) => this.lines[start - 1 + k] === t)) index++;
    }
    return { scope, index };
  }
}

/**
 * Every finding with its occurrence set. A finding on a file not given here (or on line 0, the file
 * as a whole) is counted among the findings instead: the n-th line with the same rule, path and evidence.
 */
export function placeOccurrences(findings: readonly Finding[], files: ReadonlyMap<string, OccurrenceFile>): Finding[] {
  const indexes = new Map<string, FileIndex>();
  const counted = new Map<string, number[]>();
  const byPlace = [...findings].map((finding, order) => ({ finding, order })).sort((a, b) => a.finding.line - b.finding.line || a.finding.end_line - b.finding.end_line || a.order - b.order);
  const placed = new Array<Finding>(findings.length);
  for (const { finding, order } of byPlace) {
    const file = files.get(finding.path);
    let index = file === undefined ? undefined : indexes.get(finding.path);
    if (file !== undefined && index === undefined) indexes.set(finding.path, (index = new FileIndex(file)));
    if (index !== undefined && index.has(finding.line)) {
      placed[order] = atOccurrence(finding, index.place(finding.line, finding.end_line));
      continue;
    }
    // the n-th distinct line with this rule, path and evidence: findings on one line are one occurrence
    const key = `${finding.rule}\0${finding.path}\0${normaliseEvidence(finding.evidence)}`;
    const lines = counted.get(key) ?? [];
    if (!lines.includes(finding.line)) lines.push(finding.line);
    counted.set(key, lines);
    placed[order] = atOccurrence(finding, { scope: '', index: lines.indexOf(finding.line) });
  }
  return placed;
}
