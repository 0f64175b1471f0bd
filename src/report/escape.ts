/**
 * Making untrusted text (evidence, messages, paths quoted from the change) harmless to print. A finding
 * must not be able to move the cursor, recolour the terminal, reorder text with bidi controls or hide
 * text in invisible characters; such characters are shown as visible escapes instead.
 */

/** True for code points that can rewrite or hide what a reader sees. Tab and newline are fine. */
export function isDangerousCodePoint(cp: number): boolean {
  if (cp === 0x09 || cp === 0x0a) return false;
  if (cp < 0x20 || cp === 0x7f) return true; // C0 controls (ESC, CR, BEL, backspace...) and DEL
  if (cp >= 0x80 && cp <= 0x9f) return true; // C1 controls (CSI 0x9b acts like ESC [)
  if (cp === 0x061c || cp === 0x200e || cp === 0x200f) return true; // bidi marks
  if (cp >= 0x202a && cp <= 0x202e) return true; // bidi embeddings and overrides (Trojan Source)
  if (cp >= 0x2066 && cp <= 0x2069) return true; // bidi isolates
  if (cp >= 0x200b && cp <= 0x200d) return true; // zero-width space, non-joiner, joiner
  if (cp === 0x2028 || cp === 0x2029 || cp === 0x2060 || cp === 0xfeff) return true; // line separators, word joiner, BOM
  if (cp >= 0xe0000 && cp <= 0xe007f) return true; // Unicode tag characters (invisible text)
  return false;
}

function visibleEscape(cp: number): string {
  if (cp <= 0xff) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\u{${cp.toString(16)}}`;
}

/**
 * Show dangerous characters as `\x1b`, `\u202e`, `\u{e0041}`. CRLF line ends are read as plain line
 * ends first so Windows files do not fill the report with `\x0d`; a lone CR is escaped.
 */
export function escapeControls(text: string): string {
  let out = '';
  for (const ch of text.replace(/\r\n/g, '\n')) {
    const cp = ch.codePointAt(0) ?? 0;
    out += isDangerousCodePoint(cp) ? visibleEscape(cp) : ch;
  }
  return out;
}

/** One line of untrusted text: dangerous characters escaped, and line breaks shown as `\n`. */
export function escapeOneLine(text: string): string {
  return escapeControls(text).replace(/\n/g, '\\n');
}

/**
 * For JSON text (JSON and SARIF): JSON.stringify already writes C0 controls as `\u001b` and so on; this
 * also writes DEL, C1, bidi and invisible characters as `\uXXXX` escapes. The parsed value is unchanged,
 * only the bytes are safe to `cat` in a terminal.
 */
export function escapeJsonText(json: string): string {
  let out = '';
  for (const ch of json) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp > 0x1f && isDangerousCodePoint(cp)) {
      for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
    } else {
      out += ch;
    }
  }
  return out;
}
