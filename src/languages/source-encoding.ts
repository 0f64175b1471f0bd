/**
 * A Python file's declared source encoding (PEP 263), for the review and the edit gate alike: in some
 * encodings Python reads other code than the UTF-8 text jscr reads. Plain data, no imports (the gate
 * bundle takes it).
 */

/** PEP 263's declaration, looked for on a Python file's first two lines. */
const PYTHON_CODING = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/;
/**
 * Encodings that read every ASCII byte as that character and never make one part of another character,
 * so Python sees the same code jscr reads as UTF-8. Anything else (utf-7, utf-16, EBCDIC, shift_jis
 * with its 0x5C trail bytes) can turn `+AAo-` inside a comment into a line break, or end a string early.
 */
const SAME_CODE_ENCODINGS = /^(utf-?8(-sig)?|(us-)?ascii|latin-?1|iso-?8859-([1-9]|1[0-5])|cp125[0-8]|windows-125[0-8]|l[1-9])$/;

/** The encoding a Python text declares when Python would read other code in it than jscr does, or null. */
export function pythonEncodingReadingOtherCode(text: string): string | null {
  const [first = '', second = ''] = text.split('\n', 2);
  // The second line counts only when the first is blank or a comment (a #! line).
  for (const line of /^[ \t\f]*(#.*)?\r?$/.test(first) ? [first, second] : [first]) {
    const name = PYTHON_CODING.exec(line)?.[1];
    if (name === undefined) continue;
    return SAME_CODE_ENCODINGS.test(name.toLowerCase().replace(/_/g, '-')) ? null : name;
  }
  return null;
}
