/**
 * Trojan Source (CVE-2021-42574), judged by what a bidi control does to the line. Embedding, override
 * and isolate controls are how right-to-left text is written, so inside one string or comment, closed
 * again before that string or comment ends, they only lay out text. They are an attack when they
 * reorder code: outside any string or comment (between tokens, in an identifier), or left open at the
 * end of the string or comment they sit in, or at the end of the line, so what follows is displayed
 * out of order (the paper's commenting-out, stretched-string and early-return shapes).
 *
 * Prose files are language, not code: there only lines inside a fenced code block count. Markup text
 * between tags is prose too; inside a tag it is code. Translation files are not passed here at all
 * (the rule's `not_paths`).
 */

const OPEN_EMBEDDING = new Set(['\u202A', '\u202B', '\u202D', '\u202E']);
const POP_EMBEDDING = '\u202C';
const OPEN_ISOLATE = new Set(['\u2066', '\u2067', '\u2068']);
const POP_ISOLATE = '\u2069';
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;

const PROSE = /\.(md|markdown|mdx|rst|txt|adoc|asciidoc|textile|org)$/i;
// Named like prose but read by a program: a CMake script, pip's requirement and constraint files.
const NOT_PROSE = /(^|\/)(CMakeLists|requirements[^/]*|constraints[^/]*)\.txt$/i;
const MARKUP = /\.(html?|xhtml|xml|svg|vue|svelte|twig|jinja2?|j2|djhtml|erb|hbs|handlebars|mustache|ejs|jsp|cshtml|razor)$|\.blade\.php$/i;
const HASH_COMMENTS = /\.(py|pyi|rb|sh|bash|zsh|ksh|pl|pm|r|ya?ml|toml|ini|cfg|conf|properties|mk|cmake|ps1|nix|tf|hcl|coffee|cr|ex|exs|jl|nim)$|(^|\/)(Dockerfile[^/]*|Makefile|Gemfile|Rakefile|\.env[^/]*|CMakeLists\.txt|requirements[^/]*\.txt|constraints[^/]*\.txt)$/i;
const FENCE = /^\s*(```|~~~)/;

/** Open or close a level on `stack` of the controls still open, as `char` does (PDF and PDI close only what they can). */
function applyBidi(stack: string[], char: string): void {
  if (OPEN_EMBEDDING.has(char)) stack.push('embedding');
  else if (OPEN_ISOLATE.has(char)) stack.push('isolate');
  else if (char === POP_EMBEDDING) {
    if (stack[stack.length - 1] === 'embedding') stack.pop();
  } else if (char === POP_ISOLATE) {
    const isolate = stack.lastIndexOf('isolate');
    if (isolate >= 0) stack.length = isolate;
  }
}

type Region = { kind: 'code' } | { kind: 'string'; quote: string } | { kind: 'comment'; end: string | null } | { kind: 'text' };

/** Whether the bidi controls of `line` reorder code tokens (see the module comment). */
export function bidiReordersCodeOnLine(line: string, options: { hashComments: boolean; markup: boolean }): boolean {
  if (!BIDI.test(line)) return false;
  const stack: string[] = [];
  let region: Region = options.markup ? { kind: 'text' } : { kind: 'code' };
  // Leaving a string, comment or text run with a control still open reorders what follows.
  const leave = (next: Region): boolean => {
    if (stack.length > 0) return true;
    region = next;
    return false;
  };
  const outside: Region = options.markup ? { kind: 'text' } : { kind: 'code' };
  for (let at = 0; at < line.length; at++) {
    const char = line[at] ?? '';
    const rest = line.slice(at, at + 4);
    if (region.kind === 'code') {
      if (BIDI.test(char)) return true;
      if (options.markup && char === '>') region = { kind: 'text' };
      else if (char === '"' || char === "'" || char === '`') region = { kind: 'string', quote: char };
      else if (rest.startsWith('//') || (options.hashComments && char === '#')) region = { kind: 'comment', end: null };
      else if (rest.startsWith('/*')) {
        region = { kind: 'comment', end: '*/' };
        at++;
      } else if (rest.startsWith('<!--')) {
        region = { kind: 'comment', end: '-->' };
        at += 3;
      }
      continue;
    }
    applyBidi(stack, char);
    if (region.kind === 'string') {
      if (char === '\\') at++;
      else if (char === region.quote && leave(options.markup ? { kind: 'code' } : outside)) return true;
    } else if (region.kind === 'comment') {
      if (region.end !== null && line.startsWith(region.end, at)) {
        at += region.end.length - 1;
        if (leave(outside)) return true;
      }
    } else if (char === '<' && !line.startsWith('<!--', at) && leave({ kind: 'code' })) return true;
    else if (line.startsWith('<!--', at)) {
      if (leave({ kind: 'comment', end: '-->' })) return true;
      at += 3;
    }
  }
  return stack.length > 0;
}

/** The rule's line check: `lines` is the whole file, `lineNumber` 1-based. */
export function bidiReordersCode(lines: readonly string[], lineNumber: number, path: string): boolean {
  const line = lines[lineNumber - 1] ?? '';
  if (PROSE.test(path) && !NOT_PROSE.test(path)) {
    // Inside a fenced code block when an odd number of fences open before the line.
    let fenced = false;
    for (let at = 0; at < lineNumber - 1; at++) if (FENCE.test(lines[at] ?? '')) fenced = !fenced;
    return fenced && bidiReordersCodeOnLine(line, { hashComments: true, markup: false });
  }
  return bidiReordersCodeOnLine(line, { hashComments: HASH_COMMENTS.test(path), markup: MARKUP.test(path) });
}
