/**
 * The declared types of a file's variables and fields, by the common declaration shapes, read in one
 * pass per shape for every name at once. Asking each shape once per name scanned the whole file per
 * receiver name; on a project of thousands of Java files that was a tenth of a change's proof.
 *
 * Each shape, at any one start position, can match for one name only (its type and name are whole
 * words), so scanning every start position with a lookahead and keeping each name's first match gives
 * what the name's own search gives: the leftmost match of the first shape that has one.
 * tests/prover/declared-types.test.ts holds the index to the per-name searches on generated texts.
 */

/** The shapes, in the order they are preferred; each captures the type (1) and the name (2). */
const SHAPES: readonly RegExp[] = [
  // `Type name =`, `Map<K, V> name;`, `private Client $client;`
  /(?=\b([A-Z]\w*)(?:<[^<>;=]{0,80}>)?\s+\$?(\w+)\s*[=;,)])/g,
  // `$name = new Type`, `name = new \Type`
  /(?=\$?(\w+)\s*=\s*new\s+\\?([A-Z][\w\\]*))/g,
];
/** The shapes after the docblock one (`@var`, read by hand below). */
const LATER_SHAPES: readonly RegExp[] = [
  // `self.name = Type(`, `this.name = Type(`
  /(?=(?:self|this)\.(\w+)\s*=\s*([A-Z]\w*)\()/g,
  // `name = Type(`
  /(?=\b(\w+)\s*=\s*([A-Z]\w*)\()/g,
  // `name: Type`, `name?: Type`
  /(?=\b(\w+)\??\s*:\s*([A-Z]\w*))/g,
];

/** The first shape 1's type groups first; the rest capture the name first. */
const TYPE_FIRST = new Set<RegExp>([SHAPES[0]!]);

/** Name → declared type for every name some shape declares, in the shapes' order of preference. */
export function declaredTypesOf(text: string): ReadonlyMap<string, string> {
  const byShape: Map<string, string>[] = [];
  for (const shape of SHAPES) byShape.push(firstMatches(text, shape));
  byShape.push(docblockTypes(text));
  for (const shape of LATER_SHAPES) byShape.push(firstMatches(text, shape));
  const types = new Map<string, string>();
  for (const shape of byShape) for (const [name, type] of shape) if (!types.has(name)) types.set(name, type);
  return types;
}

/** Each name's type at its first match of `shape`. */
function firstMatches(text: string, shape: RegExp): Map<string, string> {
  const found = new Map<string, string>();
  const typeFirst = TYPE_FIRST.has(shape);
  shape.lastIndex = 0;
  for (const match of text.matchAll(shape)) {
    const type = typeFirst ? match[1] : match[2];
    const name = typeFirst ? match[2] : match[1];
    if (type !== undefined && name !== undefined && !found.has(name)) found.set(name, type);
  }
  return found;
}

const DOCBLOCK = /@var\s+\\?([A-Z][\w\\]*)/g;
/** `$name` at a given offset (sticky): the whole word, as `\$name\b` asks. */
const VARIABLE = /\$(\w+)/y;

/**
 * A docblock type above a PHP property (`/** @var LambdaClient *\/ private $client;`): the type names
 * every `$name` after it on its own line, the first `$name` of the next line, and the first of the line
 * after when the next line has none.
 */
function docblockTypes(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const note = (at: number, type: string): void => {
    VARIABLE.lastIndex = at;
    const name = VARIABLE.exec(text)?.[1];
    if (name !== undefined && !found.has(name)) found.set(name, type);
  };
  for (const match of text.matchAll(DOCBLOCK)) {
    const type = match[1];
    if (type === undefined) continue;
    const end = match.index + match[0].length;
    const lineEnd = endOfLine(text, end);
    for (const at of dollarsIn(text, end, lineEnd)) note(at, type);
    if (lineEnd === text.length) continue;
    const secondEnd = endOfLine(text, lineEnd + 1);
    const second = dollarsIn(text, lineEnd + 1, secondEnd);
    if (second.length > 0) note(second[0]!, type);
    else if (secondEnd < text.length) {
      const third = dollarsIn(text, secondEnd + 1, endOfLine(text, secondEnd + 1));
      if (third.length > 0) note(third[0]!, type);
    }
  }
  return found;
}

/** Offsets of the `$` signs in text[from, to). */
function dollarsIn(text: string, from: number, to: number): number[] {
  const found: number[] = [];
  const line = text.slice(from, to);
  for (let at = line.indexOf('$'); at !== -1; at = line.indexOf('$', at + 1)) found.push(from + at);
  return found;
}

function endOfLine(text: string, from: number): number {
  const at = text.indexOf('\n', from);
  return at === -1 ? text.length : at;
}
