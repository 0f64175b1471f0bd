/**
 * Old rule ids (rules/aliases/renamed-rules.toml): a renamed or retired rule keeps being matched by
 * suppressions, inline comments, fingerprints and `--finding` written with its old id. Old names chain:
 * if a became b and b became c, a finding of c answers to b and a too.
 */
import { z } from 'zod';
import { loadDataFile, UniqueIds } from '../data-file/load.js';
import { packageFileText } from '../package-root.js';
import { flowRuleId, loadBuiltinFlowRows } from './flow-load.js';

export const ALIASES_FILE = 'rules/aliases/renamed-rules.toml';

const RULE_ID = z.string().regex(/^[\w.@-]+\/[\w.:/@-]+$/, 'expected a rule id such as jscr/<name>');

const AliasSchema = z.strictObject({
  /** The id findings, suppressions and fingerprints used before. */
  old: RULE_ID,
  /** The rule or check that reports those findings now. */
  now: RULE_ID,
  /** Why the id changed, for the rules reference. */
  reason: z.string().min(1),
});

const AliasFileSchema = z.strictObject({ alias: z.array(AliasSchema).default([]) });

export type RuleAlias = z.infer<typeof AliasSchema>;

/** The old ids of each rule, resolved through chains. */
export class RuleAliases {
  private readonly oldIdsOf = new Map<string, string[]>();

  constructor(readonly entries: readonly RuleAlias[]) {
    const direct = new Map<string, string[]>();
    for (const alias of entries) direct.set(alias.now, [...(direct.get(alias.now) ?? []), alias.old]);
    for (const now of direct.keys()) {
      const seen: string[] = [];
      const walk = (id: string): void => {
        for (const old of direct.get(id) ?? []) {
          if (old === now || seen.includes(old)) continue;
          seen.push(old);
          walk(old);
        }
      };
      walk(now);
      this.oldIdsOf.set(now, seen);
    }
  }

  /** The rule's own id, then every id it was known by before. */
  namesOf(rule: string): string[] {
    return [rule, ...(this.oldIdsOf.get(rule) ?? [])];
  }

  /** True when `named` (in a suppression, say) is `rule` or one of its old ids. */
  names(named: string, rule: string): boolean {
    return named === rule || (this.oldIdsOf.get(rule) ?? []).includes(named);
  }
}

/** Parse an alias table; an invalid one is a RuleFileError naming the file, line and key. */
export function parseRuleAliases(text: string, file = ALIASES_FILE): RuleAliases {
  return loadDataFile({
    file,
    text,
    kind: 'rules',
    schema: AliasFileSchema,
    normalise: (data, context) => {
      const olds = new UniqueIds('old rule id');
      data.alias.forEach((alias, index) => {
        olds.claim(alias.old, context, ['alias', index, 'old']);
        if (alias.old === alias.now) throw context.problem(['alias', index, 'now'], 'an alias must name a different rule than its old id');
      });
      const retired = new Set(data.alias.map((a) => a.old));
      data.alias.forEach((alias, index) => {
        // a chain is fine (a became b, b became c); a loop would make no id the current one
        const visited = new Set<string>([alias.old]);
        let at = alias.now;
        while (retired.has(at)) {
          if (visited.has(at)) throw context.problem(['alias', index, 'now'], `the old ids ${[...visited].join(', ')} lead back to themselves`);
          visited.add(at);
          at = data.alias.find((a) => a.old === at)?.now ?? at;
        }
      });
      return new RuleAliases(data.alias);
    },
  });
}

let cached: RuleAliases | null = null;

/**
 * The built-in alias table, read once per process: the renamed rules, and the pattern rules each
 * data-flow row supersedes (its `aliases`), so a suppression or `--finding` written for the pattern rule
 * still covers the flow finding that now reports that weakness. Several flow rows may answer to one
 * old id (two command sinks both superseding one exec rule).
 */
export function builtinRuleAliases(): RuleAliases {
  if (cached !== null) return cached;
  const renamed = parseRuleAliases(packageFileText('rules', 'aliases', 'renamed-rules.toml'));
  const superseded: RuleAlias[] = [];
  for (const meta of loadBuiltinFlowRows().meta.values()) {
    for (const old of meta.aliases) superseded.push({ old, now: flowRuleId(meta.id), reason: 'reported by data flow now' });
  }
  cached = new RuleAliases([...renamed.entries, ...superseded]);
  return cached;
}
