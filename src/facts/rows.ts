/**
 * The rows `jscr facts init` proposes and promotes: a project's own check helper, where it is defined,
 * and what a call to it proves. A promoted row is a `[[prover.guards]]` table of `.jscr.toml` with its
 * provenance (source file, region, commit), so the prover reads it like any hand-written guard and a
 * reviewer can see what it was verified against.
 */
import { tomlString } from '../config/reference.js';
import { escapeOneLine } from '../report/escape.js';
import { GUARD_KINDS } from '../prover/declarations.js';
import type { DischargeKind } from '../prover/types.js';

/** What a call to the helper proves, in the words of `[prover] guards`. */
export type GuardKind = 'authentication' | 'permission' | 'ownership';

/** Where a row came from: the engine's own reading, the model, or a maintainer's file. */
export type RowOrigin = 'engine' | 'model' | 'maintainer';

/** A proposed row, before the gate. */
export interface ProposedRow {
  /** The helper: a function name, or `Class.method` / `Class::method`. */
  name: string;
  checks: GuardKind;
  /** The parameter naming the checked object, when the check binds one. */
  resource: number | string | null;
  /** The file that defines it, repository-relative. */
  path: string;
  /** A line inside its definition. */
  line: number;
  /** Why the proposer thinks it is a check. */
  reason: string;
  origin: RowOrigin;
}

/** A row the gate admitted: its definition found, its check confirmed, its provenance fixed. */
export interface PromotedRow extends ProposedRow {
  /** The definition's first and last line. */
  region: { first: number; last: number };
  /** The commit it was verified at. */
  version: string;
  /** What the gate saw that confirms the check. */
  evidence: string;
}

/** A row the gate refused, and why. */
export interface RefusedRow {
  row: ProposedRow;
  reason: string;
}

/** The engine's discharge kinds in the words of `[prover] guards` (the inverse of its GUARD_KINDS table). */
export function guardKindsOf(kinds: readonly DischargeKind[]): GuardKind[] {
  const words = Object.entries(GUARD_KINDS) as [GuardKind, DischargeKind][];
  return words.filter(([, kind]) => kinds.includes(kind)).map(([word]) => word);
}

/** How much a kind proves: a permission or ownership check also proves there is a user. */
export function proves(kinds: readonly GuardKind[], claimed: GuardKind): boolean {
  return kinds.includes(claimed) || (claimed === 'authentication' && kinds.length > 0);
}

/** The `[[prover.guards]]` tables of these rows, with their provenance and reason as TOML. */
export function guardsToml(rows: readonly PromotedRow[]): string {
  const blocks = rows.map((row) => {
    const lines = [
      `# ${escapeOneLine(`${row.origin === 'engine' ? 'read by the engine' : row.origin === 'model' ? 'proposed by the model' : 'proposed by a maintainer'}: ${row.reason}`)}`,
      `# verified: ${escapeOneLine(row.evidence)}`,
      '[[prover.guards]]',
      `name = ${tomlString(row.name)}`,
      `checks = ${tomlString(row.checks)}`,
    ];
    if (row.resource !== null) lines.push(`resource = ${typeof row.resource === 'number' ? String(row.resource) : tomlString(row.resource)}`);
    lines.push(`source = ${tomlString(row.path)}`, `region = ${tomlString(`${row.region.first}-${row.region.last}`)}`, `version = ${tomlString(row.version)}`);
    return lines.join('\n');
  });
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
}
