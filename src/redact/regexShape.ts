/**
 * A load-time check that a regular expression written as data cannot backtrack catastrophically.
 *
 * The check is structural (in the spirit of star height): a repeated group may not itself contain
 * a repeated item, as in `(a+)+` or `(?:\w+\s?)*`. Those shapes make V8's backtracking engine
 * exponential on near-miss input. Bounded repeats of at most one (`?`, `{0,1}`) do not count, so
 * optional groups such as `(?:proj-)?` stay allowed. The check is conservative: it may refuse a
 * harmless pattern, never the reverse for the shape it looks for.
 */

interface GroupFrame {
  /** Some item directly or indirectly inside this group repeats more than once. */
  containsRepeat: boolean;
}

/** How many times a quantifier at `source[index]` lets its item repeat, and where it ends. */
function readQuantifier(source: string, index: number): { max: number; end: number } | null {
  const char = source[index];
  let max: number;
  let end: number;
  if (char === '*' || char === '+') {
    max = Infinity;
    end = index + 1;
  } else if (char === '?') {
    max = 1;
    end = index + 1;
  } else if (char === '{') {
    const bounds = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(index, index + 24));
    if (!bounds) return null; // a literal brace
    const min = Number(bounds[1]);
    max = bounds[2] === undefined ? min : bounds[3] === '' ? Infinity : Number(bounds[3]);
    end = index + bounds[0].length;
  } else {
    return null;
  }
  if (source[end] === '?') end += 1; // lazy modifier
  return { max, end };
}

/**
 * Returns a one-line description of the problem when `source` has a catastrophic shape (a repeat
 * inside a repeat), or null when it passes.
 */
export function catastrophicShape(source: string): string | null {
  const stack: GroupFrame[] = [{ containsRepeat: false }];
  // What the next quantifier would apply to: an atom, or a group that just closed (and what it held).
  let previous: { kind: 'atom' } | { kind: 'group'; containsRepeat: boolean } | null = null;
  let index = 0;
  while (index < source.length) {
    const char = source[index] as string;
    const quantifier = readQuantifier(source, index);
    if (quantifier && previous) {
      if (quantifier.max > 1) {
        if (previous.kind === 'group' && previous.containsRepeat) {
          return `nested repetition near offset ${index}: a repeated group contains a repeated item`;
        }
        (stack[stack.length - 1] as GroupFrame).containsRepeat = true;
      } else if (previous.kind === 'group' && previous.containsRepeat) {
        // `(a+)?` still contains a repeat; the enclosing group inherits that.
        (stack[stack.length - 1] as GroupFrame).containsRepeat = true;
      }
      previous = null;
      index = quantifier.end;
      continue;
    }
    if (previous?.kind === 'group' && previous.containsRepeat) {
      (stack[stack.length - 1] as GroupFrame).containsRepeat = true;
    }
    if (char === '\\') {
      previous = { kind: 'atom' };
      index += 2;
    } else if (char === '[') {
      // Skip a character class, honouring escapes and a leading `]` or `^]`.
      let cursor = index + 1;
      if (source[cursor] === '^') cursor += 1;
      if (source[cursor] === ']') cursor += 1;
      while (cursor < source.length && source[cursor] !== ']') cursor += source[cursor] === '\\' ? 2 : 1;
      previous = { kind: 'atom' };
      index = cursor + 1;
    } else if (char === '(') {
      stack.push({ containsRepeat: false });
      previous = null;
      index += 1;
      // Skip the group's prefix: `?:`, `?=`, `?!`, `?<=`, `?<!`, `?<name>`.
      if (source[index] === '?') {
        const prefix = /^\?(?::|=|!|<=|<!|<[A-Za-z_][A-Za-z0-9_]*>)/.exec(source.slice(index, index + 40));
        if (prefix) index += prefix[0].length;
      }
    } else if (char === ')') {
      const frame = stack.pop();
      if (!frame || stack.length === 0) return `unbalanced parenthesis at offset ${index}`;
      previous = { kind: 'group', containsRepeat: frame.containsRepeat };
      index += 1;
    } else if (char === '|') {
      previous = null;
      index += 1;
    } else {
      previous = char === '^' || char === '$' ? null : { kind: 'atom' };
      index += 1;
    }
  }
  if (stack.length !== 1) return 'unbalanced parenthesis';
  return null;
}
