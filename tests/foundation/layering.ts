/**
 * The import-layering check (SPEC 1, STYLE 2, docs/adr/0017-layering.md): the rules are data in
 * .dependency-cruiser.cjs at the repository root; this runs dependency-cruiser with them over a tree
 * and lists every violation as one line, so a test can hold the real tree to them and show that a
 * planted violation is caught.
 */
import { join } from 'node:path';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseConfig from 'dependency-cruiser/config-utl/extract-depcruise-config';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

/** The rules file, read from jscr's own repository whatever tree is checked. */
const LAYERING_RULES = join(import.meta.dirname, '..', '..', '.dependency-cruiser.cjs');

export interface LayeringResult {
  /** One line a violation: `rule: from → to`, or the modules or folders of a cycle or a path. */
  violations: string[];
  /** The names of the rules, in the order of the rules file. */
  rules: string[];
  /** The graph the tool saw: each module of the tree with the modules it imports and how. */
  modules: { source: string; imports: { resolved: string; types: string[] }[] }[];
}

/** Cruise `root`/src (with `root`/tsconfig.json) against the layering rules. */
export async function checkLayering(root: string): Promise<LayeringResult> {
  const config = await extractDepcruiseConfig(LAYERING_RULES);
  const forbidden = config.forbidden ?? [];
  const result = await cruise(
    ['src'],
    { ...config.options, baseDir: root, validate: true, ruleSet: { forbidden } },
    {},
    { tsConfig: extractTSConfig(join(root, 'tsconfig.json')) },
  );
  if (typeof result.output === 'string') throw new Error('dependency-cruiser returned a report, not a cruise result');
  const output: ICruiseResult = result.output;
  return {
    violations: output.summary.violations.map(describe).sort(),
    rules: forbidden.map((rule) => rule.name ?? '(unnamed rule)'),
    modules: output.modules.map((module) => ({
      source: module.source,
      imports: module.dependencies.map((dependency) => ({ resolved: dependency.resolved, types: [...dependency.dependencyTypes] })),
    })),
  };
}

function describe(violation: IViolation): string {
  const name = violation.rule.name;
  if (violation.cycle !== undefined) return `${name}: ${[violation.from, ...violation.cycle.map((step) => step.name)].map(shown).join(' → ')}`;
  if (violation.via !== undefined) return `${name}: ${[violation.from, ...violation.via.map((step) => step.name)].map(shown).join(' → ')}`;
  return violation.from === violation.to ? `${name}: ${violation.from}` : `${name}: ${violation.from} → ${shown(violation.to)}`;
}

/** A package's file as `node_modules/...`, wherever the install is (a worktree may link it from elsewhere). */
function shown(path: string): string {
  const at = path.lastIndexOf('node_modules/');
  return at === -1 ? path : path.slice(at);
}
