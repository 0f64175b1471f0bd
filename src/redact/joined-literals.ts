/**
 * Secrets written as string literals joined by the language's concatenation (`"AKIA" + "IOSF..."`,
 * Python's `"sk_live_" "..."`, PHP's `'xoxb-' . '...'`): no piece alone is a secret, so the detector
 * on the text finds nothing. Here the syntax tree says which literals are joined; each joined value is
 * read as one literal on the line of its first piece and meets the same detector with the same rules.
 * A secret that covers two or more pieces is remembered by the book, piece by piece as each line
 * writes it, so every later masking (the model's material, the report) hides each piece; and it is
 * reported like any other secret, at its first piece. ADR 0070.
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { Finding } from '../report/finding.js';
import { MAX_FILE_PARSE_MS } from '../syntax/ir.js';
import { parse, ParseStopped } from '../syntax/parser.js';
import { languageForFile, type Language } from '../syntax/languages.js';
import { lineAt, lineStarts, scanSecrets, type SecretMatch } from './detect.js';
import { matchFindings, type SecretScanFile } from './findings.js';
import type { SecretBook } from './mask.js';

/** How one grammar writes a join of strings. */
interface JoinSyntax {
  /** Binary node types that join strings, with the operator that does. */
  binary: Readonly<Record<string, string>>;
  /** Node types whose string children are joined by being written next to each other. */
  adjacent: ReadonlySet<string>;
  /** String literal node types. */
  literals: ReadonlySet<string>;
  /** Parentheses around an operand. */
  parens: ReadonlySet<string>;
  /**
   * A closing quote followed by what can join it to the next literal: files without one are not parsed.
   * Comments are allowed between the pieces of a join, so a comment after a string is a cue too.
   */
  cue: RegExp;
}

const PLUS_CUE = /["'`][\s)]*(?:\+|\/[/*])/g;
const JS: JoinSyntax = { binary: { binary_expression: '+' }, adjacent: new Set(), literals: new Set(['string', 'template_string']), parens: new Set(['parenthesized_expression']), cue: PLUS_CUE };
const SYNTAX: Record<Language, JoinSyntax> = {
  javascript: JS,
  typescript: JS,
  tsx: JS,
  java: { ...JS, literals: new Set(['string_literal']) },
  go: { ...JS, literals: new Set(['interpreted_string_literal', 'raw_string_literal']) },
  php: { ...JS, binary: { binary_expression: '.' }, literals: new Set(['string', 'encapsed_string']), cue: /["'][\s)]*(?:\.|\/[/*]|#)/g },
  // Implicit concatenation needs no operator: any string followed by another (`"a""b"` included) is a cue.
  python: { binary: { binary_operator: '+' }, adjacent: new Set(['concatenated_string']), literals: new Set(['string']), parens: new Set(['parenthesized_expression']), cue: /["'][\s)\\]*(?:\+|#|[rRbBuUfF]{0,2}["'])/g },
  ruby: { binary: { binary: '+' }, adjacent: new Set(['chained_string']), literals: new Set(['string']), parens: new Set(['parenthesized_statements']), cue: /["'][\s)\\]*(?:\+|#|["'])/g },
};

/** What a literal holds besides its value: anything else inside it (`${x}`, `{x}`, `$x`) is a hole. */
const VALUE_PARTS = new Set(['string_fragment', 'string_content', 'escape_sequence', 'multiline_string_fragment', 'string_start', 'string_end']);
const isComment = (node: Node): boolean => node.type.includes('comment');

/** One literal of a join: the node's span and its value's span (without quotes and prefix). */
interface Piece {
  start: number;
  end: number;
  valueStart: number;
  valueEnd: number;
}

/** The value's span of a literal node without holes, or null when it has one. */
function pieceOf(node: Node): Piece | null {
  if (node.namedChildren.some((child) => child !== null && !VALUE_PARTS.has(child.type) && !isComment(child))) return null;
  const first = node.child(0);
  const last = node.child(node.childCount - 1);
  // Delimiter nodes around the value: quotes (JavaScript, Java, PHP, Ruby, Go's `"..."`), or Python's string_start/string_end.
  const delimited = (part: Node | null): part is Node => part !== null && (!VALUE_PARTS.has(part.type) || part.type === 'string_start' || part.type === 'string_end');
  if (node.childCount >= 2 && delimited(first) && delimited(last)) {
    return { start: node.startIndex, end: node.endIndex, valueStart: first.endIndex, valueEnd: last.startIndex };
  }
  // A literal with no delimiter nodes (Go's raw string): its quotes are its first and last characters.
  const quote = /^[A-Za-z]*("""|'''|["'`])/.exec(node.text)?.[0].length ?? 1;
  const closing = /("""|'''|["'`])$/.exec(node.text)?.[0].length ?? 1;
  if (node.text.length < quote + closing) return null;
  return { start: node.startIndex, end: node.endIndex, valueStart: node.startIndex + quote, valueEnd: node.endIndex - closing };
}

/**
 * The operands of the join whose outermost node is `top`, in order: a piece for each literal, null for
 * anything else (a name, a call, a literal with a hole), which separates the runs of joined literals.
 * A stack, not recursion: a chain of thousands of `+` is a tree that deep.
 */
function operands(top: Node, syntax: JoinSyntax, seen: Set<number>): (Piece | null)[] {
  const out: (Piece | null)[] = [];
  const stack: Node[] = [top];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const joins = joinsStrings(node, syntax);
    if (joins || syntax.parens.has(node.type)) {
      seen.add(node.id);
      const inner = node.namedChildren.filter((child): child is Node => child !== null && !isComment(child));
      if (!joins && inner.length !== 1) out.push(null);
      else for (let i = inner.length - 1; i >= 0; i -= 1) stack.push(inner[i] as Node);
    } else {
      out.push(syntax.literals.has(node.type) ? pieceOf(node) : null);
    }
  }
  return out;
}

function joinsStrings(node: Node, syntax: JoinSyntax): boolean {
  if (syntax.adjacent.has(node.type)) return true;
  const operator = syntax.binary[node.type];
  return operator !== undefined && node.childForFieldName('operator')?.type === operator;
}

/**
 * Runs of two or more literals joined directly, each in source order. One cursor walk in document
 * order, into the nodes that hold a cue only; the outermost join is met first and read whole, the
 * joins inside it are known by then. (A node's `parent` is found from the root down in tree-sitter:
 * walking up from each cue would be quadratic on a long file or a deep chain.)
 */
function joinedRuns(root: Node, text: string, syntax: JoinSyntax, cues: number[]): Piece[][] {
  const runs: Piece[][] = [];
  const seen = new Set<number>();
  const cursor = root.walk();
  let next = 0; // the first cue not before the current node
  try {
    for (;;) {
      while (next < cues.length && (cues[next] as number) < cursor.startIndex) next += 1;
      if (next < cues.length && (cues[next] as number) < cursor.endIndex) {
        if (syntax.adjacent.has(cursor.nodeType) || syntax.binary[cursor.nodeType] !== undefined) {
          const node = cursor.currentNode;
          if (!seen.has(node.id) && joinsStrings(node, syntax)) runs.push(...literalRuns(operands(node, syntax, seen)));
        }
        if (cursor.gotoFirstChild()) continue;
      }
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return runs;
    }
  } finally {
    cursor.delete();
  }
}

/** The runs of two or more consecutive pieces among `operands`. */
function literalRuns(operands: (Piece | null)[]): Piece[][] {
  const runs: Piece[][] = [];
  let run: Piece[] = [];
  for (const piece of [...operands, null]) {
    if (piece !== null) run.push(piece);
    else {
      if (run.length >= 2) runs.push(run);
      run = [];
    }
  }
  return runs;
}

/** A join read as one literal, a line of the reading text: where each piece's value sits in that line. */
interface JoinedLine {
  pieces: Piece[];
  /** Offset of the line in the reading, and of the joined value in the line (after the line's prefix and a quote). */
  lineStart: number;
  valueAt: number;
  /** Offset of each piece's value in the joined value. */
  offsets: number[];
  line: number;
  endLine: number;
}

/** What one file's joins hold: the reading's text, the secrets in it that cover two pieces or more. */
export interface JoinedReading {
  text: string;
  lines: JoinedLine[];
  matches: SecretMatch[];
  /** False when the parse stopped at its time limit: the file's joins were not read, and its material must not leave. */
  complete: boolean;
}

const NOTHING: JoinedReading = { text: '', lines: [], matches: [], complete: true };
/** A covered stretch of a piece shorter than this is widened to the whole literal, quotes included. */
const SHORT_COVER = 4;

const readings = new WeakMap<SecretBook, Map<string, JoinedReading>>();

/**
 * Each join of `text` read as one literal, one per line: the text before its first piece on that
 * line (an assignment's name, which the generic rules need), the first piece's quote, the joined
 * values (line breaks as blanks), the quote again.
 */
function readJoins(text: string, runs: Piece[][]): { text: string; lines: JoinedLine[] } {
  const starts = lineStarts(text);
  const out: string[] = [];
  const lines: JoinedLine[] = [];
  let at = 0;
  for (const pieces of runs) {
    const first = pieces[0] as Piece;
    const last = pieces[pieces.length - 1] as Piece;
    const line = lineAt(starts, first.start);
    const prefix = text.slice(starts[line - 1], first.start).replace(/\r/g, ' ');
    const quote = text[first.valueStart - 1] ?? '"';
    const offsets: number[] = [];
    let value = '';
    for (const piece of pieces) {
      offsets.push(value.length);
      value += text.slice(piece.valueStart, piece.valueEnd);
    }
    const written = `${prefix}${quote}${value.replace(/[\r\n]/g, ' ')}${quote}`;
    lines.push({ pieces, lineStart: at, valueAt: prefix.length + 1, offsets, line, endLine: lineAt(starts, Math.max(first.start, last.end - 1)) });
    out.push(written);
    at += written.length + 1;
  }
  return { text: out.join('\n'), lines };
}

/** The stretches of the file a secret at [from, to) of a joined value covers, one per line it is written on. */
function coveredSource(text: string, line: JoinedLine, from: number, to: number): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  line.pieces.forEach((piece, i) => {
    const offset = line.offsets[i] as number;
    const length = piece.valueEnd - piece.valueStart;
    const start = Math.max(from - offset, 0);
    const end = Math.min(to - offset, length);
    if (end <= start) return;
    // A piece covered whole, or by a few characters only, goes whole: quotes and all, so even a
    // one-character piece is masked exactly where it is written.
    const whole = (start === 0 && end === length) || end - start < SHORT_COVER;
    const span = whole ? { start: piece.start, end: piece.end } : { start: piece.valueStart + start, end: piece.valueStart + end };
    const previous = spans[spans.length - 1];
    // Pieces on one line are one stretch, the operator between them included.
    if (previous !== undefined && !text.slice(previous.end, span.start).includes('\n')) previous.end = span.end;
    else spans.push(span);
  });
  return spans;
}

/** Where `syntax.cue` occurs in `text`: where a join may be. */
function cuesOf(text: string, syntax: JoinSyntax): number[] {
  const cues: number[] = [];
  syntax.cue.lastIndex = 0;
  for (let cue = syntax.cue.exec(text); cue; cue = syntax.cue.exec(text)) cues.push(cue.index);
  return cues;
}

/** Read the joins of `text`, parsed as `root`, and remember every joined secret in `book`. */
function readTree(text: string, syntax: JoinSyntax, cues: number[], root: Node, book: SecretBook): JoinedReading {
  const runs = joinedRuns(root, text, syntax, cues);
  if (runs.length === 0) return NOTHING;
  const reading = readJoins(text, runs);
  const matches: SecretMatch[] = [];
  for (const match of scanSecrets(reading.text, book.rules).matches) {
    // The reading has one line per join (no line break inside one), so a match's line is its join.
    const line = reading.lines[match.line - 1];
    if (line === undefined) continue;
    const from = match.start - line.lineStart - line.valueAt;
    const to = match.end - line.lineStart - line.valueAt;
    // A secret inside one piece, or before the join, is the detector's on the file itself.
    if (line.offsets.filter((offset, i) => offset < to && offset + (line.pieces[i] as Piece).valueEnd - (line.pieces[i] as Piece).valueStart > from).length < 2) continue;
    matches.push(match);
    book.learn({ rule: match.rule, value: reading.text.slice(match.start, match.end) });
    for (const span of coveredSource(text, line, from, to)) {
      for (const part of text.slice(span.start, span.end).split(/\r?\n/)) {
        const shown = part.trim();
        if (shown.length > 0) book.learnExact({ rule: match.rule, value: shown });
      }
    }
  }
  return { ...reading, matches, complete: true };
}

async function readFile(path: string, text: string, book: SecretBook): Promise<JoinedReading> {
  const language = languageForFile(path, text);
  if (language === null) return NOTHING;
  const syntax = SYNTAX[language];
  const cues = cuesOf(text, syntax);
  if (cues.length === 0) return NOTHING;
  let tree: Tree;
  try {
    // The syntax step's limit per file: a file it can parse is read for joins too.
    tree = await parse(language, text, { stopAt: Date.now() + MAX_FILE_PARSE_MS });
  } catch (error) {
    if (error instanceof ParseStopped) return { ...NOTHING, complete: false };
    throw error;
  }
  try {
    return readTree(text, syntax, cues, tree.rootNode, book);
  } finally {
    tree.delete();
  }
}

function readingsOf(book: SecretBook): Map<string, JoinedReading> {
  let known = readings.get(book);
  if (known === undefined) {
    known = new Map();
    readings.set(book, known);
  }
  return known;
}

/**
 * Read the joins of a file the review has parsed already (the syntax step), from its tree: the later
 * steps then find the reading made and do not parse the file again.
 */
export function learnJoinedSecretsOfTree(book: SecretBook, text: string, language: Language, root: Node): void {
  const known = readingsOf(book);
  if (known.has(text)) return;
  const syntax = SYNTAX[language];
  const cues = cuesOf(text, syntax);
  known.set(text, cues.length === 0 ? NOTHING : readTree(text, syntax, cues, root, book));
}

/** Read `text`'s joins once per book: remember every joined secret so that each piece is masked. */
export async function learnJoinedSecrets(book: SecretBook, path: string, text: string): Promise<JoinedReading> {
  const known = readingsOf(book);
  let reading = known.get(text);
  if (reading === undefined) {
    reading = await readFile(path, text, book);
    known.set(text, reading);
  }
  return reading;
}

/** `jscr/hardcoded-secret` findings for the joined secrets of a file, each at its first piece (through its last). */
export async function joinedSecretFindings(file: SecretScanFile, book: SecretBook): Promise<Finding[]> {
  const reading = await learnJoinedSecrets(book, file.path, file.text);
  if (reading.matches.length === 0) return [];
  const place = (line: number): { line: number; endLine: number } => {
    const join = reading.lines[line - 1] as JoinedLine;
    return { line: join.line, endLine: join.endLine };
  };
  // Every piece is a literal by construction; the reading's lines are one per join.
  return matchFindings({ path: file.path, text: reading.text, scanLines: file.scanLines, literalAt: () => 'literal' }, reading.matches, book.rules, place);
}
