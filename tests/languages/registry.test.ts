/**
 * The language registry as a literal table: what every extension is to every part of jscr that
 * chooses by file name, read through that part's own function, in any letter case.
 */
import { describe, expect, it } from 'vitest';
import { classifyTarget } from '../../src/gate/classify.js';
import { guardLanguageForPath, GUARD_EXTENSIONS } from '../../src/guard/languages.js';
import { buildFileTypes, extensionOf, FILE_TYPES, fileTypeOf, fileTypeOfFile, isCodePath, OTHER_CODE_EXTENSIONS } from '../../src/languages/registry.js';
import { allowsJsx, isCFamily, profileLanguageFor } from '../../src/profile/languages.js';
import { bandit } from '../../src/review/scanners/bandit.js';
import { eslint } from '../../src/review/scanners/eslint.js';
import { shellcheck } from '../../src/review/scanners/shellcheck.js';
import { fileKind } from '../../src/rules/engine.js';
import { languageForPath } from '../../src/syntax/languages.js';

interface Expected {
  grammar: string | null;
  lexer: string | null;
  /** The rule kind for files that are not a grammar's. */
  kind: string | null;
  scanners: string[];
  facts: string | null;
  guard: string | null;
  jsx: boolean;
}

const none = { grammar: null, lexer: null, kind: null, scanners: [], facts: null, guard: null, jsx: false };
const python = { ...none, grammar: 'python', lexer: 'python', facts: 'python' };
const javascript = { ...none, grammar: 'javascript', lexer: 'javascript', scanners: ['eslint'], facts: 'typescript', guard: 'javascript', jsx: true };
const typescript = { ...none, grammar: 'typescript', lexer: 'typescript', facts: 'typescript', guard: 'typescript' };
const shell = { ...none, lexer: 'shell', kind: 'shell', scanners: ['shellcheck'] };

/** Written out by hand, not derived from src: a change to the registry has to change this too. */
const TABLE: Record<string, Expected> = {
  '.py': { ...python, scanners: ['bandit'], guard: 'python' },
  '.pyi': python,
  '.pyw': { ...python, scanners: ['bandit'] },
  '.js': javascript,
  '.mjs': javascript,
  '.cjs': javascript,
  '.jsx': javascript,
  '.ts': typescript,
  '.mts': typescript,
  '.cts': typescript,
  '.tsx': { ...typescript, grammar: 'tsx', jsx: true },
  '.java': { ...none, grammar: 'java', lexer: 'java', facts: 'java' },
  '.php': { ...none, grammar: 'php', facts: 'php' },
  '.go': { ...none, grammar: 'go', lexer: 'go' },
  '.rb': { ...none, grammar: 'ruby' },
  '.rs': { ...none, lexer: 'rust' },
  '.kt': { ...none, lexer: 'kotlin' },
  '.kts': { ...none, lexer: 'kotlin' },
  '.cs': { ...none, lexer: 'csharp' },
  '.c': { ...none, lexer: 'c' },
  '.h': { ...none, lexer: 'c' },
  '.cc': { ...none, lexer: 'c' },
  '.cpp': { ...none, lexer: 'c' },
  '.cxx': { ...none, lexer: 'c' },
  '.hpp': { ...none, lexer: 'c' },
  '.hh': { ...none, lexer: 'c' },
  '.hxx': { ...none, lexer: 'c' },
  '.sh': shell,
  '.bash': shell,
  '.ksh': shell,
  '.dash': shell,
  // shellcheck refuses zsh scripts; the shell rules and the shell lexer read them.
  '.zsh': { ...shell, scanners: [] },
  '.ps1': { ...none, lexer: 'powershell' },
  '.psm1': { ...none, lexer: 'powershell' },
  '.bat': { ...none, lexer: 'batch' },
  '.cmd': { ...none, lexer: 'batch' },
};

/** What each part of jscr makes of a path, each through its own entry point. */
function seenBy(path: string): Expected {
  const guard = guardLanguageForPath(path);
  const lexer = profileLanguageFor(path);
  return {
    grammar: languageForPath(path),
    lexer,
    kind: fileKind(path, ''),
    scanners: [bandit, eslint, shellcheck].filter((s) => s.filesFor([path]).length === 1).map((s) => s.name),
    facts: fileTypeOf(path)?.facts ?? null,
    guard: guard?.language ?? null,
    jsx: allowsJsx(path),
  };
}

/** The same name in three letter cases. */
function spellings(extension: string): string[] {
  const mixed = [...extension].map((ch, i) => (i % 2 === 0 ? ch.toUpperCase() : ch)).join('');
  return [`src/app/file${extension}`, `src/app/FILE${extension.toUpperCase()}`, `src/app/File${mixed}`];
}

describe('the language registry', () => {
  it('lists exactly the extensions of the table, each once', () => {
    const extensions = FILE_TYPES.map((t) => t.extension);
    expect(new Set(extensions).size).toBe(extensions.length);
    expect([...extensions].sort()).toEqual(Object.keys(TABLE).sort());
  });

  it('keeps the code it has no table for apart from the table, lowercase with the dot', () => {
    expect(OTHER_CODE_EXTENSIONS.filter((e) => Object.hasOwn(TABLE, e) || !/^\.[a-z0-9]+$/.test(e))).toEqual([]);
    expect(new Set(OTHER_CODE_EXTENSIONS).size).toBe(OTHER_CODE_EXTENSIONS.length);
  });

  it.each(Object.entries(TABLE))('%s means the same to every part, in any letter case', (extension, expected) => {
    for (const path of spellings(extension)) expect(seenBy(path), path).toEqual(expected);
  });

  it('gives the guard the grammar of the extension (.tsx has its own)', () => {
    expect(guardLanguageForPath('ui/App.TSX')).toEqual({ language: 'typescript', grammar: 'tsx' });
    expect(guardLanguageForPath('ui/app.ts')).toEqual({ language: 'typescript', grammar: 'typescript' });
    expect(guardLanguageForPath('lib/x.JSX')).toEqual({ language: 'javascript', grammar: 'javascript' });
  });

  it('keeps the guard list of extensions its messages name', () => {
    expect(GUARD_EXTENSIONS).toEqual(['.py', '.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx']);
  });

  it.each(['.py', 'src/.ts', 'a/b/.sh', 'Makefile', 'src/py', 'a.py/b', 'a.py\\b', 'x.', 'notes.txt', 'a.pyc', 'a.tsx.bak'])(
    '%s has no language to anyone',
    (path) => {
      expect(seenBy(path)).toEqual(none);
    },
  );

  it('takes the extension of the base name, with either separator', () => {
    expect(extensionOf('a.b/c')).toBe('');
    expect(extensionOf('dir.d\\Main.JAVA')).toBe('.java');
    expect(extensionOf('.eslintrc.CJS')).toBe('.cjs');
    expect(languageForPath('win\\path\\Tool.Py')).toBe('python');
  });

  it('splits lexer families by comment syntax', () => {
    expect(['javascript', 'typescript', 'go', 'rust', 'java', 'kotlin', 'csharp', 'c'].every((f) => isCFamily(f as never))).toBe(true);
    expect(['python', 'shell', 'powershell', 'batch'].some((f) => isCFamily(f as never))).toBe(false);
  });

  it('counts every language of the table as code, and code it has no table for', () => {
    for (const extension of Object.keys(TABLE)) expect(isCodePath(`x/y${extension.toUpperCase()}`), extension).toBe(true);
    expect(['a.vue', 'b.SQL', 'c.tf', 'd.html'].every(isCodePath)).toBe(true);
    expect(['a.png', 'b.json', 'README', '.sh', 'x.lock'].some(isCodePath)).toBe(false);
  });

  it('reads a script without a known extension in the language its #! line names, env and its options included', () => {
    const languageOf = (path: string, text: string) => fileTypeOfFile(path, text)?.language ?? null;
    expect(languageOf('bin/run', '#!/usr/bin/env python3\n')).toBe('python');
    expect(languageOf('bin/run', '#! /usr/bin/python3.12 -u\n')).toBe('python');
    expect(languageOf('bin/run', '#!/usr/bin/env -S PYTHONPATH=. python3 -u\n')).toBe('python');
    expect(languageOf('bin/run', '#!/usr/bin/env node\n')).toBe('javascript');
    expect(languageOf('bin/run.cgi', '#!/usr/bin/php\n')).toBe('php');
    expect(languageOf('bin/run', '#!/usr/bin/env perl\n')).toBe(null);
    expect(languageOf('bin/run', 'python3 x.py\n')).toBe(null);
    // The extension wins: a `.js` file with a python shebang is still JavaScript.
    expect(languageOf('a.js', '#!/usr/bin/env python3\n')).toBe('javascript');
  });

  it('still finds shell scripts without an extension by their shebang, and Dockerfiles and workflows by name', () => {
    expect(fileKind('bin/run', '#!/usr/bin/env zsh\n')).toBe('shell');
    expect(fileKind('bin/run.txt', '#!/bin/ksh -e\n')).toBe('shell');
    expect(fileKind('bin/run', '#!/usr/bin/env python3\n')).toBe(null);
    expect(fileKind('deploy/Dockerfile.sh', '')).toBe('dockerfile');
    expect(fileKind('.github/workflows/ci.sh', '')).toBe('shell');
  });

  it('tells the gate a .env file with a language extension is code, any other .env file configuration', () => {
    expect(['.env.ts', '.env.tsx', '.env.py', '.env.sh', 'app/.env.php'].map(classifyTarget)).toEqual(['code', 'code', 'code', 'code', 'code']);
    expect(['.env', '.env.local', '.env.production', 'app/.env.example'].map(classifyTarget)).toEqual(['config', 'config', 'config', 'config']);
  });

  it('refuses rows that list an extension twice, in another case, or make an exception for one they do not list', () => {
    const row = { language: 'go' as const, extensions: ['.go'], traits: {} };
    expect(() => buildFileTypes([row, { ...row, language: 'ruby' }])).toThrow('.go is listed twice');
    expect(() => buildFileTypes([{ ...row, extensions: ['.Go'] }])).toThrow('not a lowercase extension');
    expect(() => buildFileTypes([{ ...row, except: { '.mod': { lexer: 'go' } } }])).toThrow('makes an exception for .mod');
  });
});
