/**
 * web-tree-sitter, initialised once per process. Grammars are loaded together, before the first parse,
 * because a grammar loaded after parsing has started costs up to a second (deps.md T16).
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { endianness } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Language as TSLanguage, Node, Parser as TSParser, Tree } from 'web-tree-sitter';
import type { Language } from './languages.js';
import type * as WebTreeSitter from 'web-tree-sitter';
import { packageFileBytes, runsEmbedded } from '../package-root.js';

/** Where the .wasm files are: beside the bundle (dist/wasm) or, from source, in node_modules. */
function wasmPath(file: string): string {
  const bundled = join(dirname(fileURLToPath(import.meta.url)), 'wasm', file);
  if (existsSync(bundled)) return bundled;
  const require = createRequire(import.meta.url);
  if (file === 'tree-sitter.wasm') return require.resolve('web-tree-sitter/tree-sitter.wasm');
  return join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out', file);
}

/** A .wasm file's bytes: embedded in the single executable, else read from wasmPath. */
async function wasmBytes(file: string): Promise<Uint8Array> {
  return runsEmbedded() ? packageFileBytes('wasm', file) : readFile(wasmPath(file));
}

interface Runtime {
  module: typeof WebTreeSitter;
  languages: Map<Language, TSLanguage>;
  parser: TSParser;
}

let runtime: Promise<Runtime> | null = null;
/** Serialises grammar loading (see loadGrammars). */
let loadQueue: Promise<void> = Promise.resolve();

async function init(): Promise<Runtime> {
  const module = await import('web-tree-sitter');
  const wasmBinary = await wasmBytes('tree-sitter.wasm');
  const binding: Record<string, unknown> = { wasmBinary };
  await module.Parser.init(binding);
  fastWordAccess(binding);
  return { module, languages: new Map(), parser: new module.Parser() };
}

/** The emscripten module's memory accessors, as web-tree-sitter 0.25 calls them (`C.setValue(address, value, 'i32')`). */
interface MemoryAccess {
  HEAP32?: unknown;
  setValue?: unknown;
  getValue?: unknown;
}

type SetValue = (address: number, value: number, type?: string) => void;
type GetValue = (address: number, type?: string) => unknown;

/**
 * Every node and cursor read of web-tree-sitter passes its handles through the module's generic
 * `setValue`/`getValue` (a string test and a switch on the type name, then a DataView access), five
 * to ten times per read. On a little-endian machine a 32-bit word is one typed-array access; the
 * other types keep the original accessors. `init` passed `binding` to `Parser.init`, which makes it
 * the emscripten module itself (`var Module = moduleArg`), so the replacement is what web-tree-sitter
 * calls; `HEAP32` is read at each call because a memory growth replaces it. Without the accessors
 * this version is expected to have, nothing changes. ADR 0037.
 */
function fastWordAccess(binding: MemoryAccess): void {
  if (endianness() !== 'LE' || typeof binding.setValue !== 'function' || typeof binding.getValue !== 'function' || !(binding.HEAP32 instanceof Int32Array)) return;
  const setValue = binding.setValue as SetValue;
  const getValue = binding.getValue as GetValue;
  const heap = binding as { HEAP32: Int32Array };
  binding.setValue = (address: number, value: number, type?: string): void => {
    if (type === 'i32') heap.HEAP32[address >> 2] = value;
    else setValue(address, value, type);
  };
  binding.getValue = (address: number, type?: string): unknown => (type === 'i32' ? heap.HEAP32[address >> 2] : getValue(address, type));
}

/**
 * Load every grammar a run will need, in one go. Call this before the first parse with the full set;
 * a later call for a grammar not yet loaded still works, only slower.
 */
export async function loadGrammars(languages: Iterable<Language>): Promise<void> {
  runtime ??= init();
  const rt = await runtime;
  const wanted = [...new Set(languages)].filter((l) => !rt.languages.has(l));
  if (wanted.length === 0) return;
  const bytes = await Promise.all(wanted.map((l) => wasmBytes(`tree-sitter-${l}.wasm`)));
  // Strictly one Language.load at a time, across callers too: concurrent loads race in the wasm
  // dynamic linker and fail with "bad export type for 'tree_sitter_<lang>_external_scanner_create'".
  const run = loadQueue.then(async () => {
    for (const [i, l] of wanted.entries()) {
      const wasm = bytes[i];
      if (rt.languages.has(l) || !wasm) continue; // another caller may have loaded it meanwhile
      rt.languages.set(l, await rt.module.Language.load(wasm));
    }
  });
  loadQueue = run.catch(() => undefined); // a failed load must not block later ones
  await run;
}

/** The loaded tree-sitter Language object (for queries). Loads the grammar if needed. */
export async function grammar(language: Language): Promise<TSLanguage> {
  await loadGrammars([language]);
  const rt = await runtime!; // set by loadGrammars
  const lang = rt.languages.get(language);
  if (!lang) throw new Error(`grammar ${language} did not load`);
  return lang;
}

/** The web-tree-sitter module itself (Query, Node types), once initialised. */
export async function treeSitter(): Promise<typeof WebTreeSitter> {
  runtime ??= init();
  return (await runtime).module;
}

/**
 * Parse text. The caller owns the returned tree and must call `tree.delete()` when done
 * (trees live in wasm memory, not the JS heap).
 */
export async function parse(language: Language, text: string, options: ParseLimits = {}): Promise<Tree> {
  const lang = await grammar(language);
  const rt = await runtime!; // set by grammar()
  rt.parser.setLanguage(lang);
  let cancelled = false;
  const stopAt = options.stopAt;
  const tree = rt.parser.parse(
    text,
    null,
    stopAt === undefined ? {} : { progressCallback: () => (cancelled ||= Date.now() >= stopAt) },
  );
  if (!tree) throw cancelled ? new ParseStopped(language) : new Error(`tree-sitter returned no tree for ${language}`);
  return tree;
}

/** How long a parse may take: it is cancelled at `stopAt` (epoch ms), with ParseStopped. */
export interface ParseLimits {
  stopAt?: number;
}

/** A parse cancelled at its time limit: the file was not (fully) looked at. */
export class ParseStopped extends Error {
  constructor(language: string) {
    super(`parsing ${language} stopped at its time limit`);
    this.name = 'ParseStopped';
  }
}

/** Node types the grammars jscr loads give comments. */
const COMMENT_TYPES = new Set(['comment', 'line_comment', 'block_comment']);

/** How a comment can begin in each grammar: every comment node's text starts with one of these. */
const COMMENT_STARTS: Record<Language, readonly string[]> = {
  python: ['#'],
  javascript: ['//', '/*'],
  typescript: ['//', '/*'],
  tsx: ['//', '/*'],
  java: ['//', '/*'],
  php: ['#', '//', '/*'],
  go: ['//', '/*'],
  ruby: ['#', '=begin'],
};

/**
 * The comment nodes directly inside an argument list. Only the places where a comment can begin are
 * looked up in the tree (a walk of every node costs more than parsing); a hit inside a string or a
 * comment found already is passed over.
 */
function commentsInArguments(tree: Tree, language: Language, text: string): Node[] {
  const starts = new Set<number>();
  for (const marker of COMMENT_STARTS[language]) for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) starts.add(at);
  const found: Node[] = [];
  let coveredUntil = -1;
  for (const at of [...starts].sort((a, b) => a - b)) {
    if (at < coveredUntil) continue;
    let node = tree.rootNode.descendantForIndex(at, at + 1);
    // The comment is the node found or the nearest of its ancestors that starts at the same place.
    while (node !== null && node.startIndex === at && !COMMENT_TYPES.has(node.type)) node = node.parent;
    if (node === null || node.startIndex !== at) continue;
    coveredUntil = node.endIndex;
    if (/argument/.test(node.parent?.type ?? '')) found.push(node);
  }
  return found;
}

/**
 * Parse `text` as query rules see it: comments inside an argument list are blanked (spaces, newlines
 * kept, so every row and column stays) and the text parsed again. A comment is a node of its own, so
 * `os.system(  # note` would make the comment the call's first argument and an anchored pattern
 * (`(argument_list . (binary_operator))`) would miss the real one.
 */
export async function parseForQueries(language: Language, text: string, options: ParseLimits = {}): Promise<Tree> {
  const tree = await parse(language, text, options);
  const inArguments = commentsInArguments(tree, language, text);
  if (inArguments.length === 0) return tree;
  const chars = text.split('');
  for (const node of inArguments) {
    for (let at = node.startIndex; at < node.endIndex; at++) if (chars[at] !== '\n' && chars[at] !== '\r') chars[at] = ' ';
  }
  tree.delete();
  return parse(language, chars.join(''), options);
}
