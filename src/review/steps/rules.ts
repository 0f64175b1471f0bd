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
import { languageForPath } from '../../syntax/languages.js';
import { unfinishedDetail } from '../deadline.js';
import { scanLinesFor, type ReadFiles } from './read-files.js';
import { incomplete, ran, result, type ReviewStep } from './step.js';

export interface RuleRun {
  /** Metadata of the built-in rules and checks (titles, help) for renderers such as SARIF. */
  ruleMeta: RuleMeta[];
  /** Entries for the report's `limits_reached`. */
  limits: string[];
}

const SYMLINK_MODE = '120000';

export const rulesStep: ReviewStep<'rules', { read_files: ReadFiles }, RuleRun> = {
  name: 'rules',
  run: async ({ read_files }, run) => {
    const { deadline, book } = run;
    const rules = await loadBuiltinRules();
    const ruleMeta = [...rules.map((r) => ({ id: r.id, title: r.title, severity: r.severity, cwe: r.cwe, message: r.message })), ...flowRuleMeta(), ...builtinCheckMeta()];
    const targets = read_files.readable
      .filter((f) => f.diff.newMode !== SYMLINK_MODE)
      .map((f) => ({ path: f.diff.path, language: languageForPath(f.diff.path), kind: fileKind(f.diff.path, f.text), text: f.text, scanLines: scanLinesFor(f, run) }));
    const ruleRun = await runRules({ files: targets, rules, limits: deadline });
    // One file at a time, so the deadline stops the secret detector between files too.
    const secrets: Finding[] = [];
    const secretsUnfinished: string[] = [];
    for (const t of targets) {
      if (deadline.expired()) secretsUnfinished.push(t.path);
      else secrets.push(...(await secretFindingsBySyntax([{ path: t.path, text: t.text, scanLines: t.scanLines }], book)));
    }
    const capped = ruleRun.capped;
    const limits = capped.length > 0 ? [`rules: at most ${MAX_HITS_PER_RULE_PER_FILE} lines per rule per file (${capped.slice(0, 5).join('; ')}${capped.length > 5 ? '; ...' : ''})`] : [];
    const detail = `${rules.length} built-in rules and the secret detector over ${targets.length} file(s)`;
    const problems = [
      ...ruleRun.unfinished.map((u) => `${u.path} (${u.reason})`),
      ...(secretsUnfinished.length > 0 ? [unfinishedDetail('the secret detector', secretsUnfinished)] : []),
    ];
    const verdict = problems.length === 0 ? ran(detail) : incomplete('failed', `${detail}; not finished: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? '; ...' : ''}`);
    return result(verdict, { ruleMeta, limits }, [...secrets, ...ruleRun.findings]);
  },
  notRun: () => ({ ruleMeta: [], limits: [] }),
};
