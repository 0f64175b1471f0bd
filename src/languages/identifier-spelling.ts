/**
 * Names a language reads as another name than their text. JavaScript resolves a `\u0065` escape in
 * an identifier to `e` (`cp.\u0065xec` is `cp.exec`); Java translates `\uXXXX` escapes anywhere in
 * the source before it reads a token (`.\u0065xec(` is `.exec(`, `\u000a` ends a comment); Python
 * folds identifiers with NFKC (PEP 3131: `ｏｓ.ｓｙｓｔｅｍ` is `os.system`). jscr's rules, data flow and
 * prover match names by their text, so such a file would pass as harmless: the review does not review
 * it, and the prover's run over it is incomplete. The gate does not take this module (it loads
 * TypeScript's parser).
 */
import type { Node as TsNode } from 'typescript';
import type { Grammar } from './registry.js';

const JS_LIKE = new Set<Grammar>(['javascript', 'typescript', 'tsx']);

/** A name written otherwise than the language reads it: `escaped_name` (an escape) or `folded_name` (NFKC). */
export interface RespelledName {
  code: 'escaped_name' | 'folded_name';
  /** Where and what the language reads, one sentence. */
  detail: string;
}

/** The name in `text` the language reads otherwise than it is written, or null. */
export async function respelledName(grammar: Grammar, path: string, text: string): Promise<RespelledName | null> {
  if (JS_LIKE.has(grammar)) return text.includes('\\u') ? javascriptEscapedIdentifier(path, text, grammar) : null;
  if (grammar === 'java') return text.includes('\\u') ? javaAsciiEscape(text) : null;
  if (grammar === 'python') return /[^\x00-\x7f]/.test(text) ? pythonFoldedIdentifier(text) : null;
  return null;
}

const lineAt = (text: string, index: number): number => text.slice(0, index).split('\n').length;

async function javascriptEscapedIdentifier(path: string, text: string, grammar: Grammar): Promise<RespelledName | null> {
  // TypeScript's parser tells an identifier from a string or a regular expression holding the same escape.
  const ts = (await import('typescript')).default;
  const kind = grammar === 'tsx' ? ts.ScriptKind.TSX : grammar === 'typescript' ? ts.ScriptKind.TS : ts.ScriptKind.JSX;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  // an explicit stack: a deeply nested hostile file must not overflow the call stack
  const pending: TsNode[] = [source];
  while (pending.length > 0) {
    const node = pending.pop() as TsNode;
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      const start = node.getStart(source);
      if (text.slice(start, node.end).includes('\\')) {
        return { code: 'escaped_name', detail: `the identifier on line ${lineAt(text, start)} is written with a Unicode escape that JavaScript reads as ${JSON.stringify(ts.idText(node))}, a name jscr's checks match by its text` };
      }
    }
    ts.forEachChild(node, (child) => void pending.push(child));
  }
  return null;
}

/** A `\uXXXX` escape (any number of u's) not itself escaped by a backslash before it, as Java reads them. */
const JAVA_UNICODE_ESCAPE = /(?<!\\)(?:\\\\)*\\u+([0-9a-fA-F]{4})/g;

function javaAsciiEscape(text: string): RespelledName | null {
  for (const match of text.matchAll(JAVA_UNICODE_ESCAPE)) {
    const code = Number.parseInt(match[1] ?? '', 16);
    // Printable ASCII and line breaks change the code itself; `\u00e9` or `\u0000` in a literal is ordinary.
    if ((code >= 0x20 && code <= 0x7e) || code === 0x0a || code === 0x0d) {
      return { code: 'escaped_name', detail: `a Unicode escape on line ${lineAt(text, match.index)} is ${JSON.stringify(String.fromCharCode(code))} to Java, which reads escapes before any token, so the code is not what its text shows` };
    }
  }
  return null;
}

/**
 * Comments and string literals, which Python does not fold; an f-string is kept, since its braces
 * hold code. A string's body runs to the first unescaped copy of its opening quotes.
 */
const PYTHON_COMMENT_OR_STRING = /#[^\r\n]*|([rRbBuUfF]{0,2})("""|'''|"|')(?:\\[\s\S]|(?!\2)[^\\])*?\2/g;
const PYTHON_NAME = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/gu;

/** `text` with every character but line breaks made a space, so line numbers stay. */
const blank = (text: string): string => text.replace(/[^\n]/g, ' ');

/** An f-string with only the code in its replacement fields kept (`{{` is a literal brace). */
function fStringCode(literal: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < literal.length; i++) {
    const ch = literal[i] as string;
    if (depth === 0 && ch === '{' && literal[i + 1] === '{') {
      out += '  ';
      i++;
    } else if (ch === '{') {
      depth++;
      out += ch;
    } else if (ch === '}' && depth > 0) {
      depth--;
      out += ch;
    } else out += depth > 0 || ch === '\n' ? ch : ' ';
  }
  return out;
}

function pythonFoldedIdentifier(text: string): RespelledName | null {
  const code = text.replace(PYTHON_COMMENT_OR_STRING, (whole: string, prefix: string | undefined) =>
    prefix !== undefined && /f/i.test(prefix) ? fStringCode(whole) : blank(whole),
  );
  for (const match of code.matchAll(PYTHON_NAME)) {
    const name = match[0];
    if (/^[\x00-\x7f]*$/.test(name)) continue;
    const folded = name.normalize('NFKC');
    if (folded !== name) {
      return { code: 'folded_name', detail: `the name on line ${lineAt(code, match.index)} is ${JSON.stringify(folded)} to Python, which folds identifiers with NFKC, so jscr's checks, matching by text, would not see it` };
    }
  }
  return null;
}
