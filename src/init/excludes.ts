/**
 * The `review.exclude` globs `jscr init` suggests: vendored, built and minified paths the repository
 * tracks (a bundler's output folder known by its content-hashed file names), and the paths its
 * `.gitattributes` files mark `linguist-vendored` or `linguist-generated`.
 * Only path names and attribute text are looked at; nothing here runs or reads anything else.
 */

/** One suggested glob and why it is suggested (shown as a comment next to it). */
export interface ExcludeGuess {
  glob: string;
  why: string;
}

/** A `.gitattributes` file: its directory (repository-relative, '' for the root) and its text. */
export interface AttributesFile {
  dir: string;
  text: string;
}

/** Directory names whose whole content is someone else's code or a build output. */
const VENDORED_DIRECTORIES: Record<string, string> = {
  vendor: 'vendored code',
  node_modules: 'installed npm packages checked in',
  dist: 'build output',
};

/** File name endings of minified bundles and source maps. */
const GENERATED_SUFFIXES: Record<string, string> = {
  '.min.js': 'minified JavaScript',
  '.min.mjs': 'minified JavaScript',
  '.min.css': 'minified CSS',
  '.js.map': 'source maps',
  '.css.map': 'source maps',
};

/** More suggestions than this would bury the file; the rest are counted in a comment. */
const MAX_EXCLUDE_GUESSES = 40;

/** Glob metacharacters in a literal path part, escaped so picomatch matches them literally. */
function escapeGlob(literal: string): string {
  return literal.replace(/[\\*?[\]{}()!+@]/g, '\\$&');
}

/**
 * Folders whose `vendor/` holds the application's own copies of templates it renders (Laravel's
 * published views in `resources/views/vendor/`, Symfony's `templates/bundles/`): reviewed, not vendored.
 */
const TEMPLATE_FOLDERS = new Set(['views', 'templates']);

/** The first directory of `segments` that is vendored or built output, as a `dir/**` glob. */
function vendoredDirectoryGlob(segments: readonly string[]): ExcludeGuess | null {
  // the last segment is the file itself
  for (let i = 0; i < segments.length - 1; i++) {
    const name = segments[i] ?? '';
    if (name === 'vendor' && TEMPLATE_FOLDERS.has(segments[i - 1] ?? '')) continue;
    const why = name === 'build' && segments[i - 1] === 'public' ? 'build output' : Object.hasOwn(VENDORED_DIRECTORIES, name) ? VENDORED_DIRECTORIES[name] : undefined;
    if (why !== undefined) {
      const dir = segments.slice(0, i + 1);
      return { glob: `${dir.map(escapeGlob).join('/')}/**`, why: `${why} (${dir.join('/')}/)` };
    }
  }
  return null;
}

/** Suggestions from the tracked paths: the outermost such directory of each path, then file endings. */
function fromTrackedPaths(paths: readonly string[]): ExcludeGuess[] {
  const directories = new Map<string, ExcludeGuess>();
  const suffixes = new Map<string, ExcludeGuess>();
  for (const path of paths) {
    const segments = path.split('/');
    const dir = vendoredDirectoryGlob(segments);
    if (dir !== null) {
      directories.set(dir.glob, dir);
      continue;
    }
    const base = segments[segments.length - 1] ?? '';
    for (const [suffix, why] of Object.entries(GENERATED_SUFFIXES)) {
      if (base.endsWith(suffix) && base.length > suffix.length) suffixes.set(suffix, { glob: `**/*${suffix}`, why });
    }
  }
  return [...[...directories.values()].sort((a, b) => (a.glob < b.glob ? -1 : 1)), ...[...suffixes.values()].sort((a, b) => (a.glob < b.glob ? -1 : 1))];
}

/** A bundler's output file: a name, then a content hash (Vite: 8 base64url characters; webpack: 8-20 hex digits). */
const BUILT_ASSET = /^(.+)[-.]([A-Za-z0-9_-]{8}|[0-9a-f]{8,20})\.(?:m?js|css)$/;
/** Extensions of code and templates a person writes: a folder holding one of these unhashed is not only build output. */
const HAND_WRITTEN = /\.(?:m?[jt]sx?|cjs|css|s[ac]ss|less|py|php|rb|java|go|html?|twig|vue|svelte)$/;
/**
 * Folder names bundlers write to. Hashed-looking names alone are something a change can choose
 * (`users-1a2b3c4d.js` in `src/api/`), so a proposed folder must also sit where output goes.
 */
const OUTPUT_FOLDER = /^(build|builds|dist|out|output|assets|static|public|bundles?|chunks|compiled|generated|_next|_nuxt|_astro|_app|immutable|wwwroot|www)$/i;
/** A folder needs at least this many hashed files before it reads as a bundler's output folder. */
const MIN_HASHED_FILES = 3;

/**
 * A content hash as bundlers write it (Vite `index-BfT3kQ9a.js`, webpack `main.4f5e6a7b.js`): digits,
 * or cases mixed out of word order, which words in ordinary names (`app-settings.js`) do not have.
 */
function contentHash(base: string): 'hashed' | 'maybe' | 'no' {
  const match = BUILT_ASSET.exec(base);
  if (match === null) return 'no';
  const hash = match[2] ?? '';
  if (/[0-9]/.test(hash)) return 'hashed';
  if (!/[A-Z]/.test(hash) || !/[a-z]/.test(hash)) return 'no';
  // no digit but mixed case: a hash out of word order, or a word pair (`UserList`, or a hash like
  // `CoszOyzj`) that counts neither way
  return /^[A-Z]?[a-z]+(?:[A-Z][a-z]+)*$/.test(hash) ? 'maybe' : 'hashed';
}

/**
 * Build output folders: the highest folder whose files are content-hashed bundler output, with at
 * least MIN_HASHED_FILES of them and not one unhashed code or template file anywhere below it (so
 * nothing a person wrote is excluded). Evidence is in the reason: how many hashed files, one example.
 */
function fromHashedBuildOutput(paths: readonly string[]): ExcludeGuess[] {
  const hashed = new Map<string, { count: number; example: string }>();
  const handWritten = new Set<string>();
  const ancestors = (path: string): string[] => {
    const segments = path.split('/');
    return segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join('/'));
  };
  for (const path of paths) {
    const base = path.slice(path.lastIndexOf('/') + 1);
    const hash = contentHash(base);
    if (hash === 'maybe') continue;
    for (const dir of ancestors(path)) {
      if (hash === 'hashed') {
        const entry = hashed.get(dir) ?? { count: 0, example: path };
        entry.count++;
        hashed.set(dir, entry);
      } else if (HAND_WRITTEN.test(base)) handWritten.add(dir);
    }
  }
  const chosen: ExcludeGuess[] = [];
  for (const [dir, { count, example }] of [...hashed].sort(([a], [b]) => a.length - b.length || (a < b ? -1 : 1))) {
    if (count < MIN_HASHED_FILES || handWritten.has(dir) || !dir.split('/').some((segment) => OUTPUT_FOLDER.test(segment))) continue;
    if (chosen.some((guess) => dir.startsWith(guess.glob.slice(0, -2)))) continue;
    const glob = `${dir.split('/').map(escapeGlob).join('/')}/**`;
    chosen.push({ glob, why: `build output (${dir}/: ${count} files with content-hashed names such as ${example.slice(dir.length + 1)}, no hand-written code)` });
  }
  return chosen;
}

/** Whether an attribute list sets linguist-vendored or linguist-generated (not `-x`, `!x` or `x=false`). */
function marksGenerated(attributes: readonly string[]): 'linguist-vendored' | 'linguist-generated' | null {
  for (const attribute of attributes) {
    const match = /^(linguist-vendored|linguist-generated)(?:=(.*))?$/.exec(attribute);
    if (match === null) continue;
    const value = match[2];
    if (value === undefined || value === 'true') return match[1] as 'linguist-vendored' | 'linguist-generated';
  }
  return null;
}

/**
 * A gitattributes pattern as a glob relative to the repository root. As in git, a pattern without a
 * slash matches a name at any depth below its file's directory; one with a slash is anchored there.
 */
function attributePatternGlob(dir: string, pattern: string): string | null {
  const trimmed = pattern.endsWith('/') ? `${pattern}**` : pattern;
  if (trimmed.length === 0 || trimmed.startsWith('!')) return null;
  const prefix = dir === '' ? '' : `${dir.split('/').map(escapeGlob).join('/')}/`;
  const anchored = trimmed.slice(0, -1).includes('/') || trimmed.startsWith('/');
  const body = trimmed.replace(/^\/+/, '');
  return anchored ? `${prefix}${body}` : `${prefix}**/${body}`;
}

/** Suggestions from `.gitattributes` files (unquoted patterns; macros and quoted patterns are left out). */
function fromAttributes(files: readonly AttributesFile[]): ExcludeGuess[] {
  const out: ExcludeGuess[] = [];
  for (const file of files) {
    const where = file.dir === '' ? '.gitattributes' : `${file.dir}/.gitattributes`;
    for (const rawLine of file.text.split(/\r?\n/)) {
      const line = rawLine.trim();
      if (line === '' || line.startsWith('#') || line.startsWith('"') || line.startsWith('[attr]')) continue;
      const [pattern = '', ...attributes] = line.split(/[ \t]+/);
      const mark = marksGenerated(attributes);
      if (mark === null) continue;
      const glob = attributePatternGlob(file.dir, pattern);
      if (glob !== null) out.push({ glob, why: `${mark} in ${where}` });
    }
  }
  return out;
}

/** Every suggestion, each glob once, at most MAX_EXCLUDE_GUESSES (plus how many were left out). */
export function guessExcludes(trackedPaths: readonly string[], attributes: readonly AttributesFile[]): { guesses: ExcludeGuess[]; leftOut: number } {
  const seen = new Set<string>();
  const all = [...fromTrackedPaths(trackedPaths), ...fromHashedBuildOutput(trackedPaths), ...fromAttributes(attributes)].filter((g) => !seen.has(g.glob) && seen.add(g.glob));
  return { guesses: all.slice(0, MAX_EXCLUDE_GUESSES), leftOut: Math.max(0, all.length - MAX_EXCLUDE_GUESSES) };
}
