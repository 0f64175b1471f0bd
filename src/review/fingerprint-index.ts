/**
 * Finding a finding by a fingerprint someone wrote down (a `[[suppress]] fingerprint`, `--finding`):
 * version 2 or version 1, in full or as a prefix of at least 12 hex digits, computed with the finding's
 * rule id or an old id of it (rules/aliases/). A version 2 value names its occurrence; when the code is
 * still there once but in another function, it names that one copy. A version 1 value is shared by every
 * copy of a line; it names the first copy, the one a report before version 2 showed (docs/adr/0020).
 */
import type { Finding } from '../report/finding.js';
import { fingerprintsAs, V2_HALF } from '../report/fingerprint.js';
import type { RuleAliases } from '../rules/aliases.js';

/** A finding a written fingerprint names, and how. */
export interface FingerprintHit {
  finding: Finding;
  /** The rule id the fingerprint was computed with (the finding's, or an old id). */
  asRule: string;
  /** `v2-moved`: a full version 2 value whose code is here once, in another function than when it was written. */
  version: 'v2' | 'v2-moved' | 'v1';
  /** For version 1: how many findings of this review share that value (copies of one line). */
  sharedBy: number;
}

interface Entry {
  finding: Finding;
  asRule: string;
  v1: string;
  v2: string;
}

export class FingerprintIndex {
  private readonly entries: Entry[] = [];
  private readonly v1Groups = new Map<string, Entry[]>();

  /**
   * `rank` orders the copies that share a version 1 value before their lines do (lower first): the
   * suppression step puts copies on lines the change did not touch first, as those are the copies
   * that existed when the value was written down.
   */
  constructor(
    findings: readonly Finding[],
    aliases: RuleAliases,
    private readonly rank: (finding: Finding) => number = () => 0,
  ) {
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
    const moved: FingerprintHit[] = [];
    for (const entry of this.entries) {
      if (asRule !== undefined && entry.asRule !== asRule) continue;
      if (entry.v2.startsWith(wanted)) {
        out.push({ finding: entry.finding, asRule: entry.asRule, version: 'v2', sharedBy: 1 });
        continue;
      }
      const group = this.v1Groups.get(`${entry.asRule}\0${entry.v1}`) ?? [entry];
      // the code matches but not its place: only when it is the one copy, so it cannot be another copy's pin
      if (wanted.length === 2 * V2_HALF && wanted.slice(V2_HALF) === entry.v2.slice(V2_HALF) && group.length === 1) {
        moved.push({ finding: entry.finding, asRule: entry.asRule, version: 'v2-moved', sharedBy: 1 });
        continue;
      }
      if (!entry.v1.startsWith(wanted)) continue;
      if (this.first(group) === entry) out.push({ finding: entry.finding, asRule: entry.asRule, version: 'v1', sharedBy: group.length });
    }
    return out.some((hit) => hit.version === 'v2') ? out : [...out, ...moved];
  }

  /** Only the first copy answers to a version 1 value; later copies do not. */
  private first(group: readonly Entry[]): Entry | undefined {
    const order = (a: Entry, b: Entry): number =>
      this.rank(a.finding) - this.rank(b.finding) || a.finding.line - b.finding.line || a.finding.end_line - b.finding.end_line || (a.v2 < b.v2 ? -1 : a.v2 > b.v2 ? 1 : 0);
    return [...group].sort(order)[0];
  }
}
