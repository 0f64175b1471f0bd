/**
 * Step 5a: the built-in rules and the secret detector, which always run (`scanners.builtin` cannot be
 * turned off). Symlinks are not scanned: their "text" is a target path.
 */
import { secretFindingsBySyntax } from '../../redact/literal-tree.js';
import type { Finding } from '../../report/finding.js';
import type { RuleMeta } from '../../report/options.js';
import { builtinCheckMeta } from '../../rules/checks.js';
import { flowRuleMeta } from '../flow-finding.js';
import { fileKind, loadBuiltinRules, MAX_HITS_PER_RULE_PER_FILE, runRules } from '../../rules/engine.js';
import { languageForFile } from '../../syntax/languages.js';
import { unfinishedDetail } from '../deadline.js';
import { scanLinesFor, type ReadFiles } from './read-files.js';
import { incomplete, ran, result, type ReviewStep, type StepRun } from './step.js';
import { secretFindings, type SecretScanFile } from '../../redact/findings.js';
import { changedLineNumbers } from '../../git/diff.js';

export interface RuleRun {
  /** Metadata of the built-in rules and checks (titles, help) for renderers such as SARIF. */
  ruleMeta: RuleMeta[];
  /** Entries for the report's `limits_reached`. */
  limits: string[];
}

const SYMLINK_MODE = '120000';

/**
 * Data files (lock files, source maps, binary content) have no code to check, but a key in one is as
 * leaked as a key in code: the secret detector reads their text, or a binary file's printable strings
 * (reported at line 1, which is all a line means there). A binary file's base was never read as text,
 * so all of its strings are in scope.
 */
function dataSecretTargets(read_files: ReadFiles, run: StepRun): (SecretScanFile & { binary: boolean })[] {
  const wholeFiles = run.change.config.review.scope === 'changed-files';
  return read_files.changedFiles.flatMap((f) => {
    const secretText = f.class === 'data' ? f.secretText : null;
    if (secretText === null || secretText === undefined) return [];
    const scanLines = secretText.binary || wholeFiles ? 'all' : changedLineNumbers(f.diff);
    return [{ path: f.diff.path, text: secretText.text, scanLines, binary: secretText.binary }];
  });
}

function dataCount(read_files: ReadFiles): string {
  const count = read_files.changedFiles.filter((f) => f.class === 'data' && f.secretText).length;
  return count === 0 ? '' : ` and the secret detector over ${count} data file(s)`;
}

export const rulesStep: ReviewStep<'rules', { read_files: ReadFiles }, RuleRun> = {
  name: 'rules',
  run: async ({ read_files }, run) => {
    const { deadline, book } = run;
    const rules = await loadBuiltinRules();
    const ruleMeta = [...rules.map((r) => ({ id: r.id, title: r.title, severity: r.severity, cwe: r.cwe, message: r.message })), ...flowRuleMeta(), ...builtinCheckMeta()];
    const targets = read_files.readable
      .filter((f) => f.diff.newMode !== SYMLINK_MODE)
      .map((f) => ({ path: f.diff.path, language: languageForFile(f.diff.path, f.text), kind: fileKind(f.diff.path, f.text), text: f.text, scanLines: scanLinesFor(f, run) }));
    const ruleRun = await runRules({ files: targets, rules, limits: deadline });
    // One file at a time, so the deadline stops the secret detector between files too.
    const secrets: Finding[] = [];
    const secretsUnfinished: string[] = [];
    for (const t of targets) {
      if (deadline.expired()) secretsUnfinished.push(t.path);
      else secrets.push(...(await secretFindingsBySyntax([{ path: t.path, text: t.text, scanLines: t.scanLines }], book)));
    }
    for (const data of dataSecretTargets(read_files, run)) {
      if (deadline.expired()) secretsUnfinished.push(data.path);
      else secrets.push(...secretFindings([data], book).map((f) => (data.binary ? { ...f, line: 1, end_line: 1 } : f)));
    }
    const capped = ruleRun.capped;
    const limits = capped.length > 0 ? [`rules: at most ${MAX_HITS_PER_RULE_PER_FILE} lines per rule per file (${capped.slice(0, 5).join('; ')}${capped.length > 5 ? '; ...' : ''})`] : [];
    const detail = `${rules.length} built-in rules and the secret detector over ${targets.length} file(s)${dataCount(read_files)}`;
    const problems = [
      ...ruleRun.unfinished.map((u) => `${u.path} (${u.reason})`),
      ...(secretsUnfinished.length > 0 ? [unfinishedDetail('the secret detector', secretsUnfinished)] : []),
    ];
    const verdict = problems.length === 0 ? ran(detail) : incomplete('failed', `${detail}; not finished: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? '; ...' : ''}`);
    return result(verdict, { ruleMeta, limits }, [...secrets, ...ruleRun.findings]);
  },
  notRun: () => ({ ruleMeta: [], limits: [] }),
};
