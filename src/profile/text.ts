/** Small string helpers shared by the profile's passes. All linear, none builds a RegExp. */
import { isAsciiBlank, isIdentChar } from '../lexing/chars.js';

export { isIdentChar, splitLines } from '../lexing/chars.js';

/** Leading blanks of a line. */
export function indentOf(line: string): string {
  let i = 0;
  while (i < line.length && isAsciiBlank(line[i])) i++;
  return line.slice(0, i);
}

export function trimStart(line: string): string {
  return line.slice(indentOf(line).length);
}

/** Does `text` start with `word` followed by a non-identifier character (or its end)? */
export function startsWithWord(text: string, word: string): boolean {
  return text.startsWith(word) && !isIdentChar(text[word.length]);
}

/** Does `text` contain `word` as a whole identifier? */
export function containsWord(text: string, word: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(word, from);
    if (at < 0) return false;
    if (!isIdentChar(text[at - 1]) && !isIdentChar(text[at + word.length])) return true;
    from = at + 1;
  }
}

/** The identifier at the start of `text` ('' when none). */
export function leadingIdentifier(text: string): string {
  let i = 0;
  while (i < text.length && isIdentChar(text[i]) && text[i] !== '$') i++;
  return text.slice(0, i);
}

/** UTF-8 byte length without allocating. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
