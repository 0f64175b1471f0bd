/**
 * The one check, for every regex written as data (code rules, secret rules, prover facts), that it
 * cannot backtrack catastrophically. The data-file loader's pattern compiler (pattern.ts) runs it on
 * every pattern it compiles.
 *
 * It parses JavaScript regex syntax (read without the `u` flag) into a small tree and refuses two
 * shapes: an unbounded repetition that contains another unbounded repetition (`(a+)+`, `(.*)*`,
 * `(\w+\s?)*`), and an unbounded repetition of alternatives that can start with the same character
 * (`(a|a)*`, `(a|ab)+`). Bounded repeats of at most ten copies do not count, so optional groups such
 * as `(?:proj-)?` stay allowed. It refuses some safe expressions too; authors rewrite those, which is
 * cheaper than a rule that hangs a review on one crafted line.
 */

/** A set of UTF-16 code units, as ranges, possibly negated (`.` is the negation of nothing). */
interface CharSet {
  negated: boolean;
  ranges: [number, number][];
}

type RegexNode =
  | { kind: 'sequence'; items: RegexNode[] }
  | { kind: 'alternation'; branches: RegexNode[] }
  | { kind: 'group'; body: RegexNode; lookaround: boolean }
  | { kind: 'char'; set: CharSet }
  | { kind: 'repeat'; body: RegexNode; min: number; max: number }
  | { kind: 'empty' };

/** Repetitions allowing more than this many copies count as unbounded for the check. */
const UNBOUNDED_FROM = 10;

const DIGIT: [number, number][] = [[48, 57]];
const WORD: [number, number][] = [[48, 57], [65, 90], [95, 95], [97, 122]];
const SPACE: [number, number][] = [[9, 13], [32, 32], [160, 160], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]];

const ANY: CharSet = { negated: true, ranges: [] };

function single(code: number): CharSet {
  return { negated: false, ranges: [[code, code]] };
}

class RegexParser {
  private pos = 0;
  /** Bodies of the capture groups closed so far, by number; names map to numbers. */
  private readonly captures: RegexNode[] = [];
  private readonly captureNames = new Map<string, number>();
  private captureCount = 0;
  constructor(private readonly source: string) {}

  parse(): RegexNode {
    const node = this.alternation();
    if (this.pos < this.source.length) throw new Error(`unexpected "${this.source[this.pos]}" at ${this.pos}`);
    return node;
  }

  private peek(): string | undefined {
    return this.source[this.pos];
  }

  private alternation(): RegexNode {
    const branches = [this.sequence()];
    while (this.peek() === '|') {
      this.pos++;
      branches.push(this.sequence());
    }
    return branches.length === 1 ? (branches[0] as RegexNode) : { kind: 'alternation', branches };
  }

  private sequence(): RegexNode {
    const items: RegexNode[] = [];
    while (this.pos < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      items.push(this.quantified(this.atom()));
    }
    return { kind: 'sequence', items };
  }

  private quantified(body: RegexNode): RegexNode {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const braced = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.pos));
      if (!braced) return body; // a literal brace
      min = Number(braced[1]);
      max = braced[2] === undefined ? min : braced[3] === '' ? Infinity : Number(braced[3]);
      this.pos += braced[0].length - 1;
    } else return body;
    this.pos++;
    if (this.peek() === '?') this.pos++; // lazy quantifiers backtrack just as much
    return this.quantified({ kind: 'repeat', body, min, max });
  }

  private atom(): RegexNode {
    const c = this.source[this.pos++];
    switch (c) {
      case '(':
        return this.group();
      case '[':
        return { kind: 'char', set: this.charClass() };
      case '.':
        return { kind: 'char', set: ANY };
      case '^':
      case '$':
        return { kind: 'empty' };
      case '\\':
        return this.escape();
      default:
        return { kind: 'char', set: single((c as string).charCodeAt(0)) };
    }
  }

  private group(): RegexNode {
    let lookaround = false;
    let capture: number | null = null;
    if (this.source.startsWith('?:', this.pos)) this.pos += 2;
    else if (/^\?<?[=!]/.test(this.source.slice(this.pos))) {
      lookaround = true;
      this.pos += this.source[this.pos + 1] === '<' ? 3 : 2;
    } else if (this.source.startsWith('?<', this.pos)) {
      const end = this.source.indexOf('>', this.pos);
      if (end < 0) throw new Error('unterminated group name');
      capture = ++this.captureCount;
      this.captureNames.set(this.source.slice(this.pos + 2, end), capture);
      this.pos = end + 1;
    } else capture = ++this.captureCount;
    const body = this.alternation();
    if (this.source[this.pos++] !== ')') throw new Error('unterminated group');
    if (capture !== null) this.captures[capture] = body;
    return { kind: 'group', body, lookaround };
  }

  /** After a backslash outside a class. */
  private escape(): RegexNode {
    const c = this.source[this.pos];
    if (c === undefined) throw new Error('trailing backslash');
    if (c === 'b' || c === 'B') {
      this.pos++;
      return { kind: 'empty' };
    }
    if (/[1-9]/.test(c) || (c === 'k' && this.source[this.pos + 1] === '<')) {
      // A back-reference matches one of the texts its group can match, so a closed group stands in
      // for it (`(.)\1+` stays allowed); any other reference is treated as any text.
      const named = /^k<([^>]*)>/.exec(this.source.slice(this.pos));
      const digits = named ? '' : (/^\d+/.exec(this.source.slice(this.pos)) as RegExpExecArray)[0];
      this.pos += named ? named[0].length : digits.length;
      const referenced = this.captures[named ? (this.captureNames.get(named[1] as string) ?? 0) : Number(digits)];
      if (referenced) return { kind: 'group', body: referenced, lookaround: false };
      return { kind: 'repeat', body: { kind: 'char', set: ANY }, min: 0, max: Infinity };
    }
    return { kind: 'char', set: this.escapedSet() };
  }

  /** The character set of an escape (shared by classes and atoms); `pos` is just after the backslash. */
  private escapedSet(): CharSet {
    const c = this.source[this.pos++] as string;
    const hex = (length: number): CharSet => {
      const digits = this.source.slice(this.pos, this.pos + length);
      if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(digits)) return single(c.charCodeAt(0));
      this.pos += length;
      return single(parseInt(digits, 16));
    };
    switch (c) {
      case 'd':
        return { negated: false, ranges: DIGIT };
      case 'D':
        return { negated: true, ranges: DIGIT };
      case 'w':
        return { negated: false, ranges: WORD };
      case 'W':
        return { negated: true, ranges: WORD };
      case 's':
        return { negated: false, ranges: SPACE };
      case 'S':
        return { negated: true, ranges: SPACE };
      case 'n':
        return single(10);
      case 'r':
        return single(13);
      case 't':
        return single(9);
      case 'f':
        return single(12);
      case 'v':
        return single(11);
      case '0':
        return single(0);
      case 'x':
        return hex(2);
      case 'u':
        return hex(4);
      default:
        return single(c.charCodeAt(0));
    }
  }

  /** After `[`. */
  private charClass(): CharSet {
    const negated = this.peek() === '^';
    if (negated) this.pos++;
    const ranges: [number, number][] = [];
    let classNegatedParts = false;
    // In JavaScript `[]` is an empty class, so a `]` always closes the class.
    while (this.pos < this.source.length && this.peek() !== ']') {
      const lo = this.classMember();
      if (lo.negated) {
        // A negated escape such as \S inside a class: the class then matches nearly anything.
        classNegatedParts = true;
        continue;
      }
      if (this.peek() === '-' && this.source[this.pos + 1] !== ']' && lo.ranges.length === 1 && lo.ranges[0]?.[0] === lo.ranges[0]?.[1]) {
        this.pos++;
        const hi = this.classMember();
        const from = lo.ranges[0]?.[0] ?? 0;
        const to = hi.ranges.length === 1 && !hi.negated ? (hi.ranges[0]?.[1] ?? from) : from;
        ranges.push([from, Math.max(from, to)]);
        continue;
      }
      ranges.push(...lo.ranges);
    }
    if (this.source[this.pos++] !== ']') throw new Error('unterminated character class');
    if (classNegatedParts) return negated ? { negated: false, ranges: [] } : ANY;
    return { negated, ranges };
  }

  private classMember(): CharSet {
    const c = this.source[this.pos++] as string;
    if (c !== '\\') return single(c.charCodeAt(0));
    if (this.peek() === 'b') {
      this.pos++;
      return single(8); // backspace inside a class
    }
    return this.escapedSet();
  }
}

function rangesOverlap(a: [number, number][], b: [number, number][]): boolean {
  return a.some(([alo, ahi]) => b.some(([blo, bhi]) => alo <= bhi && blo <= ahi));
}

function rangesInside(inner: [number, number][], outer: [number, number][]): boolean {
  return inner.every(([lo, hi]) => outer.some(([olo, ohi]) => olo <= lo && hi <= ohi));
}

function setsIntersect(a: CharSet, b: CharSet): boolean {
  if (a.negated && b.negated) return true;
  if (a.negated) return !rangesInside(b.ranges, a.ranges);
  if (b.negated) return !rangesInside(a.ranges, b.ranges);
  return rangesOverlap(a.ranges, b.ranges);
}

function canBeEmpty(node: RegexNode): boolean {
  switch (node.kind) {
    case 'empty':
      return true;
    case 'char':
      return false;
    case 'group':
      return node.lookaround || canBeEmpty(node.body);
    case 'repeat':
      return node.min === 0 || canBeEmpty(node.body);
    case 'sequence':
      return node.items.every(canBeEmpty);
    case 'alternation':
      return node.branches.some(canBeEmpty);
  }
}

/** The characters a match of `node` can start with; `null` means it may start with anything. */
function firstChars(node: RegexNode): CharSet[] | null {
  switch (node.kind) {
    case 'empty':
      return [];
    case 'char':
      return [node.set];
    case 'group':
      return node.lookaround ? [] : firstChars(node.body);
    case 'repeat':
      return firstChars(node.body);
    case 'alternation': {
      const all: CharSet[] = [];
      for (const branch of node.branches) {
        const chars = firstChars(branch);
        if (chars === null) return null;
        all.push(...chars);
      }
      return all;
    }
    case 'sequence': {
      const all: CharSet[] = [];
      for (const item of node.items) {
        const chars = firstChars(item);
        if (chars === null) return null;
        all.push(...chars);
        if (!canBeEmpty(item)) return all;
      }
      return all;
    }
  }
}

function containsUnboundedRepeat(node: RegexNode): boolean {
  switch (node.kind) {
    case 'repeat':
      return (node.max > UNBOUNDED_FROM && !canBeEmpty(node.body)) || containsUnboundedRepeat(node.body);
    case 'group':
      return !node.lookaround && containsUnboundedRepeat(node.body);
    case 'sequence':
      return node.items.some(containsUnboundedRepeat);
    case 'alternation':
      return node.branches.some(containsUnboundedRepeat);
    default:
      return false;
  }
}

function alternativesOverlap(node: RegexNode): boolean {
  const inner = node.kind === 'group' ? node.body : node;
  if (inner.kind !== 'alternation') return false;
  const starts = inner.branches.map(firstChars);
  for (let i = 0; i < starts.length; i++) {
    for (let j = i + 1; j < starts.length; j++) {
      const a = starts[i];
      const b = starts[j];
      if (a === null || b === null || a === undefined || b === undefined) return true;
      if (a.length === 0 || b.length === 0) return true; // an empty branch overlaps everything
      if (a.some((x) => b.some((y) => setsIntersect(x, y)))) return true;
    }
  }
  return false;
}

function findHazard(node: RegexNode): string | null {
  switch (node.kind) {
    case 'repeat': {
      if (node.max > UNBOUNDED_FROM) {
        if (containsUnboundedRepeat(node.body)) return 'nested repetition, such as (a+)+: nested unbounded repetition backtracks exponentially on a near miss';
        if (alternativesOverlap(node.body)) return 'repeated alternatives that can match the same text, such as (a|ab)*';
      }
      return findHazard(node.body);
    }
    case 'group':
      return findHazard(node.body);
    case 'sequence':
      for (const item of node.items) {
        const hazard = findHazard(item);
        if (hazard) return hazard;
      }
      return null;
    case 'alternation':
      for (const branch of node.branches) {
        const hazard = findHazard(branch);
        if (hazard) return hazard;
      }
      return null;
    default:
      return null;
  }
}

/**
 * Why `source` may backtrack catastrophically, or null when none of the known shapes is present.
 * Throws when the source is not a regex this checker can read (callers compile it first with
 * `new RegExp`, so that means a construct the checker does not know, reported as unsafe).
 */
export function catastrophicBacktrackingHazard(source: string): string | null {
  let tree: RegexNode;
  try {
    tree = new RegexParser(source).parse();
  } catch (error) {
    return `the backtracking check could not read it (${error instanceof Error ? error.message : String(error)})`;
  }
  return findHazard(tree);
}
