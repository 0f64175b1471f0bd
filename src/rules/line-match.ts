/**
 * Pattern-rule matching over one file's lines. Every scanned line is tested whole, however long: no
 * window can split a match. The work is bounded per file: hits per rule are capped, the clock is
 * read between lines so a file stops at its time budget (and says so), and `unless_later` and
 * `inside_block` are worked out once per file, never per hit.
 *
 * `createLineMatcher` must stay self-contained (no imports, no module-level names): it also runs in
 * a worker thread from its own source text (src/rules/match-worker.ts), for files whose lines are
 * long enough that one regex test could take long.
 */

/** A regex as data: compiled objects do not cross threads. */
export interface RegexSource {
  source: string;
  flags: string;
}

/** The regexes of one pattern rule. */
export interface PatternJob {
  pattern: RegexSource;
  notPattern: RegexSource | null;
  unlessLater: RegexSource | null;
  insideBlock: RegexSource | null;
  requiresInFile: RegexSource | null;
  /** A match whose `value` group matches one of these whole does not count (empty: every match counts). */
  safeValues: readonly RegexSource[];
}

export interface MatchRequest {
  text: string;
  /** Indexes into the matcher's rules that apply to this file (by language and path). */
  ruleIndexes: number[];
  /** 1-based lines to test, ascending, or null for every line. */
  scan: number[] | null;
  /** At most this many hits per rule per file; the rest are counted in `capped`. */
  maxHitsPerRule: number;
  /** Epoch milliseconds at which to stop, leaving `finished` false. */
  stopAt: number;
}

export interface MatchResult {
  /** [rule index, 1-based line], per rule in scan order. */
  hits: [number, number][];
  /** Rules that reached `maxHitsPerRule` in this file. */
  capped: number[];
  /** False when `stopAt` passed before every rule had tested every line. */
  finished: boolean;
}

export type LineMatcher = (request: MatchRequest) => MatchResult;

export function createLineMatcher(jobs: readonly PatternJob[]): LineMatcher {
  const compile = (regex: RegexSource | null): RegExp | null => (regex === null ? null : new RegExp(regex.source, regex.flags));
  const rules = jobs.map((job) => ({
    pattern: compile(job.pattern) as RegExp,
    notPattern: compile(job.notPattern),
    unlessLater: compile(job.unlessLater),
    insideBlock: compile(job.insideBlock),
    requiresInFile: compile(job.requiresInFile),
    // Every match of the line is looked at, so one safe value does not hide an unsafe one beside it.
    everyMatch: job.safeValues.length > 0 ? new RegExp(job.pattern.source, `${job.pattern.flags.replace('g', '')}g`) : null,
    safeValues: job.safeValues.map((regex) => compile(regex) as RegExp),
  }));

  // True when some match of `every` on the line has a `value` that no safe regex accepts whole.
  const hasUnsafeValue = (line: string, every: RegExp, safe: readonly RegExp[]): boolean => {
    every.lastIndex = 0;
    for (let found = every.exec(line); found !== null; found = every.exec(line)) {
      if (found[0] === '') every.lastIndex++;
      const value = (found.groups?.['value'] ?? '').trim();
      if (!safe.some((regex) => regex.test(value))) return true;
    }
    return false;
  };
  // Lines read the clock this often: often enough to stop near the budget, rarely enough to cost nothing.
  const CLOCK_EVERY = 16;

  // Split like git does: on \n, with a trailing \r kept off the line.
  const splitLines = (text: string): string[] => {
    const lines = text.split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  };

  const indentOf = (line: string): number => line.length - line.trimStart().length;

  // For every line: it matches `block`, or sits by indentation under a line that does (one pass, a
  // stack of the open parent lines, instead of a walk upwards from each hit).
  const insideBlockFlags = (lines: readonly string[], block: RegExp): boolean[] => {
    const flags: boolean[] = new Array<boolean>(lines.length);
    const open: { indent: number; inside: boolean }[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? '';
      const indent = indentOf(line);
      const self = block.test(line);
      let parent = open.length;
      while (parent > 0 && (open[parent - 1]?.indent ?? 0) >= indent) parent--;
      const inherited = indent > 0 && parent > 0 && (open[parent - 1]?.inside ?? false);
      flags[i] = self || inherited;
      if (line.trim() === '') continue; // a blank line is nobody's parent
      open.length = parent;
      open.push({ indent, inside: self || inherited });
    }
    return flags;
  };

  // The last line index matching `later`, or -1.
  const lastMatching = (lines: readonly string[], later: RegExp): number => {
    for (let i = lines.length - 1; i >= 0; i--) if (later.test(lines[i] ?? '')) return i;
    return -1;
  };

  return (request: MatchRequest): MatchResult => {
    const lines = splitLines(request.text);
    const scan = request.scan ?? Array.from({ length: lines.length }, (_, i) => i + 1);
    const hits: [number, number][] = [];
    const capped: number[] = [];
    let tested = 0;
    for (const index of request.ruleIndexes) {
      const rule = rules[index];
      if (rule === undefined) continue;
      if (rule.requiresInFile !== null && !rule.requiresInFile.test(request.text)) continue;
      let blockFlags: boolean[] | null = null;
      let lastLater: number | null = null;
      let count = 0;
      for (const lineNumber of scan) {
        if (++tested % CLOCK_EVERY === 0 && Date.now() >= request.stopAt) return { hits, capped, finished: false };
        const line = lines[lineNumber - 1];
        if (line === undefined || !rule.pattern.test(line)) continue;
        if (rule.notPattern !== null && rule.notPattern.test(line)) continue;
        if (rule.everyMatch !== null && !hasUnsafeValue(line, rule.everyMatch, rule.safeValues)) continue;
        if (rule.insideBlock !== null) {
          blockFlags ??= insideBlockFlags(lines, rule.insideBlock);
          if (blockFlags[lineNumber - 1] !== true) continue;
        }
        if (rule.unlessLater !== null) {
          lastLater ??= lastMatching(lines, rule.unlessLater);
          if (lastLater >= lineNumber) continue; // a later line (index >= lineNumber) cancels it
        }
        if (count === request.maxHitsPerRule) {
          capped.push(index);
          break;
        }
        hits.push([index, lineNumber]);
        count++;
      }
    }
    return { hits, capped, finished: true };
  };
}
