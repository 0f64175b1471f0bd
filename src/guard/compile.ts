/**
 * Gate 13: ask the language's own compiler (SPEC 5). Python through `python3 -c compile(...)` via the
 * process allowlist, failing closed when python3 is missing; JavaScript and TypeScript through
 * TypeScript's parser (syntactic diagnostics only), loaded lazily because it is large.
 */
import { runProgram } from '../policy/process.js';
import type { GuardLanguage } from './languages.js';
import { temporaryDirectory } from '../policy/environment.js';

/** Why the compiler refused the result, or null when it accepted it. */
export type CompileVerdict = { ok: true } | { ok: false; reason: string };

// Reads the file's bytes (so the coding cookie is honoured) and reports one line; a nesting the
// compiler cannot hold is an answer here, not a crash.
const PYTHON_COMPILE = [
  'import sys',
  'source = sys.stdin.buffer.read()',
  'try:',
  '    compile(source, sys.argv[1], "exec", dont_inherit=True)',
  'except SyntaxError as error:',
  '    print(f"{type(error).__name__}: {error.msg} (line {error.lineno})")',
  '    sys.exit(1)',
  'except (RecursionError, MemoryError) as error:',
  '    print(f"{type(error).__name__}: nested more deeply than the compiler holds")',
  '    sys.exit(1)',
  'except (ValueError, UnicodeError) as error:',
  '    print(f"{type(error).__name__}: {error}")',
  '    sys.exit(1)',
].join('\n');

const PYTHON_TIMEOUT_MS = 20_000;

async function compilePython(bytes: Buffer, fileName: string, env: NodeJS.ProcessEnv): Promise<CompileVerdict> {
  // -I: ignore the environment and the user's site packages; the cwd is not the repository, so
  // nothing in it can be imported by python3's start-up.
  const result = await runProgram('python3', ['-I', '-S', '-c', PYTHON_COMPILE, fileName], {
    cwd: temporaryDirectory(),
    timeoutMs: PYTHON_TIMEOUT_MS,
    input: bytes,
    env,
    maxOutputBytes: 64 * 1024,
  });
  if (result.spawnError) {
    return { ok: false, reason: `python3 could not be started (${result.spawnError}), so the result could not be compiled; refusing rather than guessing` };
  }
  if (result.timedOut) return { ok: false, reason: `python3 did not finish compiling within ${PYTHON_TIMEOUT_MS / 1000} s` };
  if (result.signal) return { ok: false, reason: `python3 was killed by ${result.signal} while compiling` };
  if (result.code === 0) return { ok: true };
  const said = result.stdout.trim().split('\n').at(-1) ?? '';
  const fallback = result.stderr.trim().split('\n').at(-1) ?? `exit code ${String(result.code)}`;
  return { ok: false, reason: `python3 compile(): ${said || fallback}` };
}

async function compileTypeScript(text: string, fileName: string): Promise<CompileVerdict> {
  const ts = (await import('typescript')).default;
  try {
    const output = ts.transpileModule(text, {
      fileName,
      reportDiagnostics: true,
      compilerOptions: { target: ts.ScriptTarget.Latest, jsx: ts.JsxEmit.Preserve, allowJs: true },
    });
    const first = output.diagnostics?.find((d) => d.category === ts.DiagnosticCategory.Error);
    if (!first) return { ok: true };
    const message = ts.flattenDiagnosticMessageText(first.messageText, ' ');
    const where = first.file && first.start !== undefined ? ` (line ${first.file.getLineAndCharacterOfPosition(first.start).line + 1})` : '';
    return { ok: false, reason: `TypeScript's parser: ${message}${where}` };
  } catch (error) {
    // The parser recurses per nesting level; a stack overflow is its answer to a too-deep input.
    if (error instanceof RangeError) return { ok: false, reason: 'nested more deeply than the compiler holds' };
    throw error;
  }
}

/** Compile the result in its language. `fileName` only labels messages and picks JSX/TS parsing. */
export async function compileResult(
  language: GuardLanguage,
  bytes: Buffer,
  text: string,
  fileName: string,
  env: NodeJS.ProcessEnv,
): Promise<CompileVerdict> {
  return language === 'python' ? compilePython(bytes, fileName, env) : compileTypeScript(text, fileName);
}
