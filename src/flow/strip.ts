/**
 * What a character-class strip leaves: `re.sub(r'[^a-z0-9_]+', '', x)`, `x.replace(/[^\w-]/g, '')`,
 * `s.replaceAll("[^A-Za-z0-9]", "")`, `preg_replace('/[\/.]/', '', $x)`. Removing every character of a
 * class (or every character outside one) in one pass is a complete filter, unlike removing a sequence
 * such as `../` once (`....//` becomes `../` again), so the result can be judged by the characters that
 * survive: it is clean for a sink kind when none of the characters that do harm there can be left.
 */

/**
 * Per sink kind, the characters that let a value do harm there. Kinds not listed (code evaluation,
 * deserialisation, XML) are never cleared by a strip: harm there does not need special characters.
 */
const HARMFUL: Readonly<Record<string, string>> = {
  // `..` climbs out, `/` or `\` starts an absolute path or a further component
  path: './\\',
  xss: '<>"\'&`',
  // without quotes, spaces, comments and operators a value cannot leave a literal or a number
  sql: '\'"`\\; \t\n\r()=-/*#,|&<>',
  command: ';&|$`<>()\'"\\ \t\n\r*?[]{}~!#-',
  header: '\r\n',
  ldap: '*()\\\u0000&|=!<>~',
  xpath: '\'"[]()/=@*:| ',
  // without `/`, `\` and `:` the target stays a relative path on this site
  redirect: '/\\:',
};

/** How a row's language writes the pattern: a plain string, a `/.../flags` literal, or PHP delimiters. */
export type StripSyntax = 'plain' | 'regex-literal' | 'delimited';

/** One strip call as the engine sees it: constant pattern and replacement. */
export interface StripCall {
  pattern: string;
  replacement: string;
  syntax: StripSyntax;
  /** The call replaces every match whatever its flags (`re.sub` without count, `replaceAll`, `preg_replace`). */
  everyMatch: boolean;
}

/** The body and flags of a `/.../flags` literal or a delimited PHP pattern (`#...#i`, `{...}`). */
function undelimit(text: string): { body: string; flags: string } | null {
  const open = text[0];
  if (open === undefined || /[\w\s\\]/.test(open)) return null;
  const close = ({ '(': ')', '{': '}', '[': ']', '<': '>' } as Record<string, string>)[open] ?? open;
  const end = text.lastIndexOf(close);
  if (end <= 0) return null;
  return { body: text.slice(1, end), flags: text.slice(end + 1) };
}

/**
 * The test for "this character survives the strip", or null when the pattern is not one character
 * class (with an optional `+`/`*` quantifier), or cannot be read.
 */
function survivorTest(pattern: string, caseless: boolean): ((c: string) => boolean) | null {
  const shape = /^\[(\^?)((?:\\.|[^\]\\])+)\](?:[+*]|\{1,\})?$/s.exec(pattern);
  if (shape === null) return null;
  const negated = shape[1] === '^';
  let inClass: RegExp;
  try {
    inClass = new RegExp(`^[${shape[2] ?? ''}]$`, caseless ? 'i' : '');
  } catch {
    return null;
  }
  // `[^C]` removes everything outside C, so C survives; `[C]` removes C, so the rest survives
  return negated ? (c) => inClass.test(c) : (c) => !inClass.test(c);
}

/** The sink kinds of `candidates` the result of a strip is clean for (none when it is not a full strip). */
export function kindsClearedByStrip(strip: StripCall, candidates: ReadonlySet<string>): Set<string> {
  const cleared = new Set<string>();
  let body = strip.pattern;
  let flags = '';
  if (strip.syntax !== 'plain') {
    const parts = undelimit(strip.pattern);
    if (parts === null || (strip.syntax === 'regex-literal' && !strip.pattern.startsWith('/'))) return cleared;
    ({ body, flags } = parts);
  }
  // a JavaScript regex without `g` replaces its first match only; PHP's `x` flag changes what spaces mean
  const everyMatch = strip.everyMatch || (strip.syntax === 'regex-literal' && flags.includes('g'));
  if (!everyMatch || flags.includes('x')) return cleared;
  const survives = survivorTest(body, flags.includes('i'));
  if (survives === null) return cleared;
  for (const kind of candidates) {
    const harmful = HARMFUL[kind];
    if (harmful === undefined) continue;
    if ([...harmful].some((c) => survives(c) || strip.replacement.includes(c))) continue;
    cleared.add(kind);
  }
  return cleared;
}
