/**
 * The gate of fact acquisition: every proposed row, whoever wrote it, is admitted only when the code
 * says what the row says. Header discipline first (the source is a plain path of the revision, the
 * region is a definition of that name, the commit is fixed), then engine verification: the engine
 * itself reads the helper as a check of at least the claimed kind, or, for a helper the engine does
 * not recognise, its body refuses the request under a condition that tests what the kind is about.
 * A row that only names a function, or claims more than the body shows, is refused with the reason.
 */
import { GUARD_NAME } from '../config/schema.js';
import type { SourceReader } from '../git/sources.js';
import { unsafePathReason } from '../repo-path.js';
import { buildIR } from '../syntax/ir.js';
import type { FunctionIR } from '../syntax/ir-types.js';
import { languageForPath } from '../syntax/languages.js';
import { loadGrammars } from '../syntax/parser.js';
import type { RecognisedHelper } from '../prover/types.js';
import { guardKindsOf, proves, type GuardKind, type PromotedRow, type ProposedRow, type RefusedRow } from './rows.js';

export interface GateInput {
  rows: readonly ProposedRow[];
  /** The helpers the engine reads as checks (prover inventory). */
  recognised: readonly RecognisedHelper[];
  /** Reads files of the verified revision through the repository boundary. */
  reader: SourceReader;
  /** The verified revision, as a full commit id. */
  version: string;
}

export interface GateOutcome {
  promoted: PromotedRow[];
  refused: RefusedRow[];
}

/** A refusal: the request ends here (an exception, an abort, a 401/403, a redirect to sign in). */
const REFUSAL = /\b(throw|raise|abort(?:_if|_unless|If|Unless)?|deny\w*|forbid\w*|reject\w*|redirect\w*|halt|exit|die)\b|\b40[13]\b|unauthori[sz]ed|forbidden|access_?denied|permission_?denied|not_?authori[sz]ed|not_?allowed/i;
/** A line that decides: a branch, an assertion-style helper, a guard expression. */
const DECIDES = /\b(if|unless|elif|when|assert\w*|abort_if|abort_unless|throw_if|throw_unless|ensure\w*)\b|\?|&&|\|\||\bor\b|\band\b/;
/** What each kind of check tests, as words on the deciding line. */
const SUBJECT: Record<GuardKind, RegExp> = {
  authentication: /user|session|auth|login|logged|sign(?:ed)?_?in|token|principal|identity|credential|jwt|bearer|api_?key|member/i,
  permission: /role|permission|perm\b|perms|admin|\bcan\b|can[A-Z_]|granted|scope|abilit|polic|privilege|access|acl|allow|authori[sz]|staff|superuser|manage/i,
  ownership: /\b(owner\w*|author\w*|creator|created_?by|user_?id|userId|ownerId|authorId|belongs_?to\w*)\b|\.user\s*(===|!==|==|!=)|(===|!==|==|!=)\s*[\w$>.-]*\.user\b/i,
};
const COMPARES = /===|!==|==|!=|\bequals\b|\bis\s+not\b|\bis\b|<>/;

/** The last segment of a guard name and its class, if it names a method. */
function splitName(name: string): { fn: string; cls: string | null } {
  const parts = name.split(/\.|::/);
  return parts.length === 2 ? { cls: parts[0] ?? null, fn: parts[1] ?? name } : { cls: null, fn: name };
}

/** The definition the row means: of that name (and class), around the given line, else the only one. */
function definitionOf(functions: readonly FunctionIR[], row: ProposedRow): FunctionIR | 'ambiguous' | null {
  const { fn, cls } = splitName(row.name);
  const named = functions.filter((f) => !f.isLambda && f.name === fn && (cls === null || f.className === cls));
  const around = named.find((f) => row.line >= f.startLine && row.line <= f.endLine);
  if (around) return around;
  if (named.length === 1) return named[0] ?? null;
  return named.length === 0 ? null : 'ambiguous';
}

/** What in the body shows a check of `kind`: a deciding line about its subject, and a refusal under it. */
function bodyShowsCheck(lines: readonly string[], fn: FunctionIR, kind: GuardKind): string | null {
  const body = lines.slice(fn.bodyStartLine - 1, fn.endLine);
  for (let i = 0; i < body.length; i++) {
    const text = body[i] ?? '';
    if (!DECIDES.test(text) || !SUBJECT[kind].test(text)) continue;
    if (kind === 'ownership' && !COMPARES.test(text)) continue;
    // the refusal is on the deciding line or within the few lines of its arm
    for (let j = i; j < Math.min(body.length, i + 4); j++) {
      if (REFUSAL.test(body[j] ?? '')) {
        const at = fn.bodyStartLine + i;
        return `line ${at} decides (${text.trim().slice(0, 80)}) and line ${fn.bodyStartLine + j} refuses`;
      }
    }
  }
  return null;
}

/** Admit or refuse each row. Files are read once each; grammars are loaded in one go. */
export async function gateRows(input: GateInput): Promise<GateOutcome> {
  const promoted: PromotedRow[] = [];
  const refused: RefusedRow[] = [];
  const refuse = (row: ProposedRow, reason: string): void => void refused.push({ row, reason });
  const readable = input.rows.filter((row) => {
    if (!GUARD_NAME.test(row.name)) return refuse(row, `"${row.name}" is not a function name or Class.method`), false;
    const unsafe = unsafePathReason(row.path);
    if (unsafe !== null) return refuse(row, `the source path is not a plain repository path (${unsafe})`), false;
    if (languageForPath(row.path) === null) return refuse(row, `${row.path} is not source code jscr parses`), false;
    return true;
  });
  const paths = [...new Set(readable.map((row) => row.path))];
  const reads = await input.reader.readMany(paths);
  await loadGrammars(new Set(paths.map((p) => languageForPath(p)).filter((l) => l !== null)));
  const parsed = new Map<string, { lines: string[]; functions: FunctionIR[] }>();
  for (const path of paths) {
    const read = reads.get(path);
    const language = languageForPath(path);
    if (!read?.ok || language === null) continue;
    const ir = await buildIR(path, language, read.text);
    parsed.set(path, { lines: read.text.split(/\r?\n/), functions: ir.functions });
  }
  const seen = new Set<string>();
  for (const row of readable) {
    const file = parsed.get(row.path);
    if (!file) {
      refuse(row, `${row.path} does not exist at ${input.version.slice(0, 12)} (or could not be read)`);
      continue;
    }
    const fn = definitionOf(file.functions, row);
    if (fn === null) {
      refuse(row, `${row.path} defines no ${row.name}`);
      continue;
    }
    if (fn === 'ambiguous') {
      refuse(row, `${row.path} defines ${row.name} more than once and line ${row.line} is in none of them`);
      continue;
    }
    const key = `${row.path}\u0000${fn.qualifiedName}\u0000${row.checks}`;
    if (seen.has(key)) continue;
    const engine = input.recognised.find((h) => h.path === row.path && h.qualifiedName === fn.qualifiedName);
    const engineKinds = engine ? guardKindsOf(engine.kinds) : [];
    let evidence: string | null;
    if (engine && proves(engineKinds, row.checks)) {
      evidence = `the engine reads ${fn.qualifiedName} as a ${engineKinds.join('/')} check (${engine.shape})`;
    } else if (engine && engineKinds.length > 0 && !bodyShowsCheck(file.lines, fn, row.checks)) {
      refuse(row, `the engine reads ${fn.qualifiedName} as a ${engineKinds.join('/')} check, not ${row.checks}, and its body shows no ${row.checks} test that refuses`);
      continue;
    } else {
      evidence = bodyShowsCheck(file.lines, fn, row.checks);
    }
    if (evidence === null) {
      refuse(row, `the body of ${fn.qualifiedName} (lines ${fn.startLine}-${fn.endLine}) shows no ${row.checks} test that refuses the request`);
      continue;
    }
    seen.add(key);
    const name = row.name.includes('.') || row.name.includes('::') ? row.name : fn.name;
    promoted.push({ ...row, name, line: fn.startLine, region: { first: fn.startLine, last: fn.endLine }, version: input.version, evidence });
  }
  return { promoted, refused };
}
