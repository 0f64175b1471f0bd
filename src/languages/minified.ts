/**
 * Whether a code file's text was minified or bundled by a tool, decided from its content: the review
 * reports such a changed file as not reviewed line by line, and the prover does not read one no other
 * file names. The tests are described in docs/coverage.md.
 */

/** Files smaller than this are never called minified: there is too little to tell, and little to hide. */
const MINIFIED_MIN_BYTES = 2048;
/** A line longer than this is not hand-written. */
const LONG_LINE_CHARS = 1000;
/** Share of the text on long lines from which the file counts as minified. */
const LONG_LINE_SHARE = 0.3;
/** Average line length from which the file counts as minified. */
const AVERAGE_LINE_CHARS = 300;
/**
 * Output of bundlers that is tool-written even when it is not minified: the runtime's calls, many
 * times over, or the line margin of slashes and six stars webpack writes. Code that merely names
 * these helpers (a bundler plugin) has far fewer.
 */
const BUNDLER_SIGNATURES: { name: string; test: RegExp; times: number; literals: string[] }[] = [
  { name: 'webpack runtime', test: /\b__webpack_require__\(|^\/\*{6}\/ /gm, times: 5, literals: ['__webpack_require__(', '/******/ '] },
  { name: 'Parcel runtime', test: /\bparcelRequire\w*\(/g, times: 5, literals: ['parcelRequire'] },
];

/** True when `regex` (global) matches `text` at least `times` times. */
function matchesAtLeast(text: string, regex: RegExp, times: number): boolean {
  let count = 0;
  for (const _match of text.matchAll(regex)) if (++count >= times) return true;
  return false;
}

/**
 * Why a code file's text is minified or bundled, or null. Tests, in order: a bundler's runtime, the
 * share of the text on lines over 1,000 characters, the average line length.
 */
export function minifiedReason(text: string): string | null {
  if (text.length < MINIFIED_MIN_BYTES) return null;
  // The regex runs only where its text occurs (a native substring search rules most files out).
  for (const signature of BUNDLER_SIGNATURES) {
    if (signature.literals.some((literal) => text.includes(literal)) && matchesAtLeast(text, signature.test, signature.times)) return `bundled (${signature.name} found)`;
  }
  let lines = 0;
  let longChars = 0;
  let start = 0;
  // A final newline ends the last line; it does not start another.
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    if (stop - start > LONG_LINE_CHARS) longChars += stop - start;
    lines += 1;
    if (end < 0) break;
    start = end + 1;
  }
  const share = longChars / text.length;
  if (share >= LONG_LINE_SHARE) return `minified (${Math.round(share * 100)}% of it on lines over ${LONG_LINE_CHARS} characters)`;
  const average = text.length / Math.max(lines, 1);
  if (average >= AVERAGE_LINE_CHARS) return `minified (lines of ${Math.round(average)} characters on average)`;
  return null;
}
