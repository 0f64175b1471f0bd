/**
 * Finding a finding by a fingerprint someone wrote down (a `[[suppress]] fingerprint`, `--finding`):
 * version 2 or version 1, in full or as a prefix of at least 12 hex digits, computed with the finding's
 * rule id or an old id of it (rules/aliases/). A version 1 value is shared by every copy of a line; it
 * names the first copy, the one a report before version 2 showed (docs/adr/0020).
 */
import type { Finding } from '../report/finding.js';
import { fingerprintsAs } from '../report/fingerprint.js';
import type { RuleAliases } from '../rules/aliases.js';

/** A finding a written fingerprint names, and how. */
export interface FingerprintHit {
  finding: Finding;
  /** The rule id the fingerprint was computed with (the finding's, or an old id). */
  asRule: string;
  version: 'v2' | 'v1';
  /** For version 1: how many findings of this review share that value (copies of one line). */
  sharedBy: number;
}

interface Entry {
  finding: Finding;
  asRule: string;
  v1: string;
  v2: string;
}

/** Only the first occurrence answers to a version 1 value; later copies do not. */
function firstByPlace(group: readonly Entry[]): Entry | undefined {
  return [...group].sort((a, b) => a.finding.line - b.finding.line || a.finding.end_line - b.finding.end_line || (a.v2 < b.v2 ? -1 : a.v2 > b.v2 ? 1 : 0))[0];
}

export class FingerprintIndex {
  private readonly entries: Entry[] = [];
  private readonly v1Groups = new Map<string, Entry[]>();

  constructor(findings: readonly Finding[], aliases: RuleAliases) {
    for (const finding of findings) {
      for (const asRule of aliases.namesOf(finding.rule)) {
        const entry = { finding, asRule, ...fingerprintsAs(finding, asRule) };
        this.entries.push(entry);
        const group = this.v1Groups.get(`${asRule}\0${entry.v1}`);
        if (group === undefined) this.v1Groups.set(`${asRule}\0${entry.v1}`, [entry]);
        else group.push(entry);
      }
    }
  }

  /**
   * The findings `key` names (computed as `asRule` when given). A version 2 value names its own
   * occurrence; a version 1 value names the first of the copies that share it.
   */
  hits(key: string, asRule?: string): FingerprintHit[] {
    const wanted = key.trim().toLowerCase();
    if (!/^[0-9a-f]{12,64}$/.test(wanted)) return [];
    const out: FingerprintHit[] = [];
    for (const entry of this.entries) {
      if (asRule !== undefined && entry.asRule !== asRule) continue;
      if (entry.v2.startsWith(wanted)) {
        out.push({ finding: entry.finding, asRule: entry.asRule, version: 'v2', sharedBy: 1 });
        continue;
      }
      if (!entry.v1.startsWith(wanted)) continue;
      const group = this.v1Groups.get(`${entry.asRule}\0${entry.v1}`) ?? [entry];
      if (firstByPlace(group) === entry) out.push({ finding: entry.finding, asRule: entry.asRule, version: 'v1', sharedBy: group.length });
    }
    return out;
  }
}
