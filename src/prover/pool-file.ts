/**
 * The pool file of the scored runner (docs/prover.md, "The scored runner"): real access-control fixes
 * with the locations their fix changed, and ordinary commits of the same repositories. It names
 * repositories and revisions only; the code stays in the clones.
 */
import { z } from 'zod';
import { InputError } from '../errors.js';
import { readRegularFile } from '../io.js';

/** Revisions are commit ids: a pool cannot pass an option or a revision expression to git. */
const commitId = z.string().regex(/^[0-9a-f]{7,40}$/, 'a commit id (7 to 40 lowercase hex digits)');

const locationSchema = z
  .object({
    file: z.string().min(1),
    /** The function the fix changed, as `method`, `Class.method` or `Class::method`. */
    function: z.string().min(1).optional(),
    line: z.number().int().positive().optional(),
    /**
     * The fix left this location open, as a later fix (the pool change or advisory named) showed: a
     * finding that stays at this fix is right, so the location counts for recall but not for gone-at-fix.
     */
    open_after_fix: z.string().min(1).optional(),
  })
  .refine((l) => l.function !== undefined || l.line !== undefined, 'a location names a function or a line');

const fixSchema = z.looseObject({
  id: z.string().min(1),
  kind: z.literal('fix'),
  repo: z.string().min(1),
  /** The fix commit. */
  fixed: commitId,
  /** The vulnerable revision (default: the fix's first parent). */
  vulnerable: commitId.optional(),
  /** The commit that introduced the bug, when known: the vulnerable change is then that commit's own diff. */
  introduced: commitId.optional(),
  locations: z.array(locationSchema).min(1),
});

const ordinarySchema = z.looseObject({
  id: z.string().min(1),
  kind: z.literal('ordinary'),
  repo: z.string().min(1),
  commit: commitId,
});

const poolSchema = z.looseObject({
  schema_version: z.literal(1),
  changes: z.array(z.discriminatedUnion('kind', [fixSchema, ordinarySchema])).min(1),
});

export type PoolLocation = z.infer<typeof locationSchema>;
export type PoolChange = z.infer<typeof fixSchema> | z.infer<typeof ordinarySchema>;
export type Pool = z.infer<typeof poolSchema>;

/** What a change is proved as: the bug going in, its fix, or a push with no security purpose. */
export type RunRole = 'vulnerable' | 'fix' | 'ordinary';

export interface PlannedRun {
  /** Unique in the records: the change, its role and the revisions, so an edited pool entry runs again. */
  key: string;
  change: PoolChange;
  role: RunRole;
  base: string;
  head: string;
}

/** A pool is small and written by us; anything larger is not one. */
const MAX_POOL_BYTES = 4 * 1024 * 1024;

export function readPool(path: string): Pool {
  const read = readRegularFile(path, MAX_POOL_BYTES);
  if (!read.ok) throw new InputError(`the pool file ${path} cannot be read: ${read.problem}`);
  let json: unknown;
  try {
    json = JSON.parse(read.bytes.toString('utf8'));
  } catch (error) {
    throw new InputError(`the pool file ${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = poolSchema.safeParse(json);
  if (!parsed.success) throw new InputError(`the pool file ${path} does not have the pool shape: ${z.prettifyError(parsed.error)}`);
  const seen = new Set<string>();
  for (const change of parsed.data.changes) {
    if (seen.has(change.id)) throw new InputError(`the pool file ${path} names the change ${change.id} twice`);
    seen.add(change.id);
  }
  return parsed.data;
}

/**
 * The diffs to prove. The vulnerable change is the fix reversed (`fixed..vulnerable`), or the introducing
 * commit's own diff when the pool knows it; the fix is `vulnerable..fixed`; an ordinary push is its commit.
 */
export function plannedRuns(pool: Pool): PlannedRun[] {
  const runs: PlannedRun[] = [];
  const add = (change: PoolChange, role: RunRole, base: string, head: string): void => {
    runs.push({ key: `${change.id}/${role}/${base}..${head}`, change, role, base, head });
  };
  for (const change of pool.changes) {
    if (change.kind === 'ordinary') {
      add(change, 'ordinary', `${change.commit}^`, change.commit);
      continue;
    }
    const vulnerable = change.vulnerable ?? `${change.fixed}^`;
    if (change.introduced === undefined) add(change, 'vulnerable', change.fixed, vulnerable);
    else add(change, 'vulnerable', `${change.introduced}^`, change.introduced);
    add(change, 'fix', vulnerable, change.fixed);
  }
  return runs;
}
