/**
 * What kind of content a changed file holds, decided from the bytes (never from git's diff text and
 * never from the name alone): data with nothing to review line by line (binary content, lock files,
 * source maps), or code that was minified or bundled by a tool. The tests are described in
 * docs/coverage.md; a name only says which content shape to test for.
 */
import { parse as parseToml } from '@iarna/toml';
import { posix } from 'node:path';
import { fileTypeOfFile, type Grammar } from '../languages/registry.js';
import { pythonEncodingReadingOtherCode } from '../languages/source-encoding.js';

/** Kinds of data a review has nothing to read in line by line. */
export type DataKind = 'lock file' | 'source map' | 'image' | 'font' | 'archive' | 'binary' | 'lfs pointer';

/** Magic numbers of common binary formats, to name the kind in the report. */
const MAGIC: { kind: DataKind; name: string; bytes: number[]; at?: number }[] = [
  { kind: 'image', name: 'PNG', bytes: [0x89, 0x50, 0x4e, 0x47] },
  { kind: 'image', name: 'JPEG', bytes: [0xff, 0xd8, 0xff] },
  { kind: 'image', name: 'GIF', bytes: [0x47, 0x49, 0x46, 0x38] },
  { kind: 'image', name: 'WebP', bytes: [0x57, 0x45, 0x42, 0x50], at: 8 },
  { kind: 'image', name: 'ICO', bytes: [0x00, 0x00, 0x01, 0x00] },
  { kind: 'image', name: 'BMP', bytes: [0x42, 0x4d] },
  { kind: 'font', name: 'WOFF', bytes: [0x77, 0x4f, 0x46, 0x46] },
  { kind: 'font', name: 'WOFF2', bytes: [0x77, 0x4f, 0x46, 0x32] },
  { kind: 'font', name: 'TrueType', bytes: [0x00, 0x01, 0x00, 0x00] },
  { kind: 'font', name: 'OpenType', bytes: [0x4f, 0x54, 0x54, 0x4f] },
  { kind: 'archive', name: 'zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { kind: 'archive', name: 'gzip', bytes: [0x1f, 0x8b] },
];

/** The kind of binary content from its first bytes, with the format when it is recognised. */
export function binaryKind(head: Buffer): { kind: DataKind; format: string | null } {
  for (const magic of MAGIC) {
    const at = magic.at ?? 0;
    if (magic.bytes.every((b, i) => head[at + i] === b)) return { kind: magic.kind, format: magic.name };
  }
  return { kind: 'binary', format: null };
}

// Binary content in a code file is not "data" but a file jscr could not review; only code is tested for minified content.
export { isCodePath } from '../languages/registry.js';

/** How a lock file of each name must look; a file that does not is read as what it is: text. */
const LOCK_FILES: Record<string, (text: string) => boolean> = {
  'package-lock.json': (t) => jsonObjectWith(t, ['lockfileVersion']),
  'npm-shrinkwrap.json': (t) => jsonObjectWith(t, ['lockfileVersion']),
  'composer.lock': (t) => jsonObjectWith(t, ['packages']),
  'Pipfile.lock': (t) => jsonObjectWith(t, ['_meta']),
  'Cargo.lock': (t) => tomlWithPackages(t),
  'poetry.lock': (t) => tomlWithPackages(t),
  'uv.lock': (t) => tomlWithPackages(t),
  'go.sum': (t) => everyLine(t, GO_SUM_LINE),
  'yarn.lock': (t) => everyLine(t, YARN_LINE),
  'pnpm-lock.yaml': (t) => /^lockfileVersion: /m.test(t.slice(0, 200)) && everyLine(t, YAML_LOCK_LINE),
};

/** Names (with the source map suffix) whose content may be data: they are read whole even when large. */
export function mayBeDataByName(path: string): boolean {
  const base = posix.basename(path);
  return Object.hasOwn(LOCK_FILES, base) || base.endsWith('.map');
}

/** The first line of a Git LFS pointer (spec v1; `hawser` was the spec's first name). */
const LFS_POINTER_FIRST_LINE = /^version https:\/\/(git-lfs|hawser)\.github\.com\/spec\/v1\r?\n/;
/** git-lfs never writes a pointer this large (its own parser stops reading at 1024 bytes). */
const LFS_POINTER_MAX_BYTES = 1024;

/**
 * Whether a text is a Git LFS pointer, by its content (attributes never decide what is reviewed). The
 * content it stands for lives on an LFS server, outside the repository jscr reads.
 */
export function isLfsPointer(text: string): boolean {
  return text.length < LFS_POINTER_MAX_BYTES && LFS_POINTER_FIRST_LINE.test(text);
}

/** The data kind of a text file, when its name and its whole content agree; null for anything else. */
export function textDataKind(path: string, text: string): DataKind | null {
  const base = posix.basename(path);
  const lockShape = Object.hasOwn(LOCK_FILES, base) ? LOCK_FILES[base] : undefined;
  if (lockShape !== undefined) return lockShape(text) ? 'lock file' : null;
  if (base.endsWith('.map')) return isSourceMap(text) ? 'source map' : null;
  return null;
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function jsonObjectWith(text: string, keys: string[]): boolean {
  const value = parsedJson(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) && keys.every((k) => Object.hasOwn(value, k));
}

/** Source map v3: a JSON object with a version of 3 and a `mappings` string (or an index map's sections). */
function isSourceMap(text: string): boolean {
  const value = parsedJson(text) as { version?: unknown; mappings?: unknown; sections?: unknown } | null;
  return typeof value === 'object' && value !== null && value.version === 3 && (typeof value.mappings === 'string' || Array.isArray(value.sections));
}

function tomlWithPackages(text: string): boolean {
  try {
    const value = parseToml(text) as { package?: unknown; version?: unknown };
    return Array.isArray(value.package) || value.version !== undefined;
  } catch {
    return false;
  }
}

function everyLine(text: string, shape: RegExp): boolean {
  for (const line of text.split('\n')) if (line.length > LOCK_LINE_MAX_CHARS || !shape.test(line.replace(/\r$/, ''))) return false;
  return true;
}

/** `module version[/go.mod] h1:base64=` */
const GO_SUM_LINE = /^$|^[^\s()"'`;]+ v[^\s()"'`;]+ h1:[A-Za-z0-9+/]+=*$/;

/**
 * Quoted or plain scalars of lock files: names, versions, ranges, URLs, hashes, and pnpm's peer
 * suffixes `(name@version)`; never a call or an expression. Written so each regex runs in linear time.
 */
const LOCK_SCALAR = `(?:"[^"\\\\]*"|'[^']*'|(?:[\\w@./:~^<>=|*+#%?&,\\[\\]{} -]|\\([^()@\\s]*@[^()\\s]*\\))*)`;

/**
 * yarn.lock v1 and v2+: comments, `"key", key:` headers at the left margin, and indented `key value`
 * or `key: value` lines whose key is a bare name and whose value is a lock scalar.
 */
const YARN_LINE = new RegExp(`^$|^\\s*#.*$|^(?:"[^"]+"|[^\\s"(]+)(?:, (?:"[^"]+"|[^\\s"(]+))*:$|^ +(?:"[^"]+"|[\\w@./-]+):?(?: ${LOCK_SCALAR})?$`);

/** pnpm-lock.yaml: `key: value`, `key:`, `- item` lines with lock scalars. */
const YAML_LOCK_LINE = new RegExp(`^$|^\\s*#.*$|^ *(?:- )?(?:'[^']*'|"[^"]*"|(?:[\\w@./~^<>=|*+-]|\\([^()@\\s]*@[^()\\s]*\\))+):(?: ${LOCK_SCALAR})?$|^ *- ${LOCK_SCALAR}$`);

/** Lock files are written one short entry a line; a longer line is not one. */
const LOCK_LINE_MAX_CHARS = 4096;

export { minifiedReason } from '../languages/minified.js';

/** Grammars whose languages end a line (and a `#` or `//` comment) at a carriage return alone. */
const CR_ENDS_LINES: ReadonlySet<Grammar> = new Set(['python', 'javascript', 'typescript', 'tsx', 'java', 'php', 'ruby']);
const JS_GRAMMARS: ReadonlySet<Grammar> = new Set(['javascript', 'typescript', 'tsx']);

/**
 * Why a code file's lines are not the lines its language reads, or null. git, the diff and the parser
 * jscr uses split lines at `\n` only, but Python, JavaScript, Java, PHP and Ruby also end a line at a lone
 * `\r`, and JavaScript at U+2028 and U+2029: `# tidy up\r os.system(cmd)` is a comment to jscr and a
 * call to Python. Such a file cannot be reviewed line by line as the interpreter reads it.
 */
export function hiddenLineBreakReason(path: string, text: string): string | null {
  const grammar = fileTypeOfFile(path, text)?.grammar ?? null;
  if (grammar === null) return null;
  if (CR_ENDS_LINES.has(grammar) && /\r(?!\n)/.test(text)) {
    const line = text.slice(0, text.search(/\r(?!\n)/)).split('\n').length;
    return `line_breaks: a carriage return without a line feed on line ${line} ends the line for the language but not for git's diff, so code after it could pass as part of a comment`;
  }
  if (JS_GRAMMARS.has(grammar)) {
    const at = text.search(/[\u2028\u2029]/);
    if (at >= 0) return `line_breaks: U+${text.charCodeAt(at).toString(16).toUpperCase()} on line ${text.slice(0, at).split('\n').length} ends the line for JavaScript but not for git's diff, so code after it could pass as part of a comment`;
  }
  return null;
}

/** Why a Python file's declared source encoding makes Python read other code than jscr does, or null. */
export function declaredEncodingReason(path: string, text: string): string | null {
  if (fileTypeOfFile(path, text)?.grammar !== 'python') return null;
  const name = pythonEncodingReadingOtherCode(text);
  return name === null ? null : `encoding: the file declares the source encoding ${JSON.stringify(name)}, in which Python reads other code than the UTF-8 text jscr reviews`;
}
