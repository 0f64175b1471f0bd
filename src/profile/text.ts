/** Small string helpers shared by the profile's passes. All linear, none builds a RegExp. */

/** Split at \n, \r\n and lone \r (the only line breaks the lexer knows). */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n' || ch === '\r') {
      lines.push(text.slice(start, i));
      if (ch === '\r' && text[i + 1] === '\n') i++;
      start = i + 1;
    }
  }
  lines.push(text.slice(start));
  return lines;
}

export function isBlankChar(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\f' || ch === '\v';
}

/** Leading blanks of a line. */
export function indentOf(line: string): string {
  let i = 0;
  while (i < line.length && isBlankChar(line[i])) i++;
  return line.slice(0, i);
}

export function trimStart(line: string): string {
  return line.slice(indentOf(line).length);
}

export function isIdentChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const code = ch.charCodeAt(0);
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || ch === '_' || ch === '$' || code > 127;
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
