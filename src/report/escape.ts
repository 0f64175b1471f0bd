/**
 * Making untrusted text (evidence, messages, paths quoted from the change, model text) harmless to
 * print; every renderer escapes through this module. A finding must not be able to move the cursor,
 * recolour the terminal, reorder text with bidi controls or hide text in invisible characters (such
 * characters are shown as visible escapes); it must not be able to give a CI runner a command through
 * the job log; and in Markdown it must not become a link, an image, HTML or a mention.
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
 * ends first so Windows files do not fill the report with `\x0d`; a lone CR is escaped, as are the
 * other characters some reader takes for a line break (VT, FF, NEL, U+2028, U+2029).
 */
function escapeControlChars(text: string): string {
  let out = '';
  for (const ch of text.replace(/\r\n/g, '\n')) {
    const cp = ch.codePointAt(0) ?? 0;
    out += isDangerousCodePoint(cp) ? visibleEscape(cp) : ch;
  }
  return out;
}

/**
 * A CI runner reads commands out of the job log, stdout and stderr alike: GitHub Actions takes a line
 * that starts with `::` once leading whitespace is trimmed (`::add-mask::`, `::stop-commands::`,
 * `::error ::`), and its legacy parser, like Azure Pipelines' `##vso[`, finds `##[` anywhere in a line.
 * Untrusted text gets a backslash in front of a line-leading `::` and between the two `#`, so what was
 * there is still readable but no runner sees a command. Every line of the text counts as a line start,
 * the first included, since a renderer may print it after nothing but indentation.
 */
export function defuseLogCommands(text: string): string {
  return text.replace(/^(\s*)::/gmu, '$1\\::').replace(/##(?=\[|vso\[)/giu, '#\\#');
}

/** Untrusted text, safe to print as a block: dangerous characters escaped, log commands defused, newlines kept. */
export function escapeControls(text: string): string {
  return defuseLogCommands(escapeControlChars(text));
}

/** One line of untrusted text: as `escapeControls`, and line breaks shown as `\n`. */
export function escapeOneLine(text: string): string {
  return escapeControls(text).replace(/\n/g, '\\n');
}

/**
 * For JSON text (JSON and SARIF): JSON.stringify already writes C0 controls and newlines as `\u001b`,
 * `\n` and so on, so no string can start a line; this also writes DEL, C1, bidi and invisible
 * characters as `\uXXXX` escapes, and the second `#` of `##[` as `\u0023`. The parsed value is
 * unchanged, only the bytes are safe to `cat` in a terminal or print in a CI log.
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
  // `#` appears in JSON text only inside strings, where `\u0023` reads back as `#`
  return out.replace(/##(?=\[|vso\[)/giu, '#\\u0023');
}

/**
 * A workflow command's message (`::error ...::message`), with the runner's own escapes (`%25`, `%0D`,
 * `%0A`) after controls are made visible and log commands defused, so it stays on its one line.
 */
export function escapeCommandData(text: string): string {
  return escapeControls(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value (`file=`, `title=`): as data, plus `:` and `,` as `%3A` and `%2C`. */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** An invisible break, written as an entity: the rendered text reads the same but no longer matches. */
const BREAK = '&#8203;';

/**
 * GitHub turns `https://…`, `www.…` and `name@host` into links, `@name` into a mention and
 * `owner/repo#12` into a link to another repository, in text and in raw HTML alike (it links after
 * rendering). An invisible break after `:`, `www`, `@` and a `#` before a digit stops each of them;
 * `[`, `<` and `!` are escaped by the callers, so no link, image or tag is left.
 */
function unlinkMarkdown(text: string): string {
  return text
    .replace(/:(?=\/\/)/g, `:${BREAK}`)
    .replace(/(www)(?=\.)/gi, `$1${BREAK}`)
    .replace(/@/g, `&#64;${BREAK}`)
    .replace(/(?<!&)#(?=\d)/g, `#${BREAK}`);
}

/**
 * Untrusted text as one line of inline Markdown: controls escaped, Markdown punctuation backslash-
 * escaped (so `##[` cannot occur, and a leading `::` becomes `\::`, which renders the same), HTML as
 * entities, links and mentions broken.
 */
export function markdownInline(text: string): string {
  // punctuation first: the entities written next contain `#`, which must not be escaped again
  const escaped = escapeControlChars(text)
    .replace(/\n/g, '\\n')
    .replace(/([\\`*_[\]{}#+!~|])/g, '\\$1')
    .replace(/^(\s*):(?=:)/u, '$1\\:')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
  return unlinkMarkdown(escaped);
}

/**
 * Untrusted text inside raw HTML (the `<summary>` line, where Markdown is not interpreted): controls
 * escaped, HTML-escaped, brackets (so no `[text](url)` and no `##[`), `##vso[` and a `::` as entities
 * (they render the same), links and mentions broken.
 */
export function htmlInline(text: string): string {
  const escaped = escapeControlChars(text)
    .replace(/\n/g, '\\n')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\[/g, '&#91;')
    .replace(/\]/g, '&#93;')
    .replace(/#(?=vso&#91;)/giu, '&#35;')
    .replace(/::/g, ':&#58;');
  return unlinkMarkdown(escaped);
}

/**
 * A fenced code block that the content cannot close: the fence is longer than any backtick run inside.
 * Code in a fence is never a link, an image, HTML or a mention; only log commands need defusing, and
 * that shows as a backslash in the code (`\::`, `#\#[`), the one visible trace of it.
 */
export function markdownFence(content: string): string {
  const body = escapeControls(content).replace(/\n+$/, '');
  const longestRun = Math.max(0, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}text\n${body}\n${fence}`;
}
