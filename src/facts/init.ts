/**
 * `jscr facts init`: the prover's one-time fact acquisition for a repository. Extraction reads what
 * the engine already recognises (entries, the project's own check helpers, operations); proposal
 * (`--propose`, the model; `--from FILE`, a maintainer) adds helpers the engine does not read as
 * checks. Every row passes the gate (src/facts/gate.ts) before it is promoted, and promoted rows are
 * written as `[[prover.guards]]` into the repository's `.jscr.toml` only with `--write`, after the
 * whole new file has been parsed as a valid configuration.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { CONFIG_FILE_NAME, loadConfig, parseConfigText, type JscrConfig } from '../config/index.js';
import { parseToml } from '../data-file/toml.js';
import { resolveCommit } from '../git/change.js';
import { configTextAtRevision } from '../git/config-at-revision.js';
import { createSourceReader, type SourceReader } from '../git/sources.js';
import { InputError, oneLine } from '../errors.js';
import { readTarget, writeTarget, type WriteArea } from '../init/targets.js';
import { modelAccess } from '../model/access.js';
import { openBoundary } from '../policy/paths.js';
import { proveRange } from '../prover/prove-range.js';
import type { ProverInventory } from '../prover/types.js';
import { SecretBook } from '../redact/index.js';
import { gateRows } from './gate.js';
import { proposeRows } from './propose.js';
import { guardKindsOf, guardsToml, type PromotedRow, type ProposedRow, type RefusedRow } from './rows.js';

export interface FactsInitRequest {
  root: string;
  head: string;
  propose: boolean;
  /** A maintainer's proposal file, absolute. */
  fromFile?: { path: string; text: string };
  /** `--config FILE`, absolute. */
  configPath?: string;
  env: NodeJS.ProcessEnv;
}

/** What to do with `.jscr.toml`. */
export type FactsWritePlan =
  | { action: 'append'; text: string; added: PromotedRow[]; already: string[] }
  | { action: 'nothing'; already: string[] }
  | { action: 'conflict'; why: string };

export interface FactsInitOutcome {
  commit: string;
  entriesByFramework: Record<string, number>;
  operations: number;
  promoted: PromotedRow[];
  refused: RefusedRow[];
  /** Proposal mode: candidates shown to the model and left out by the bound. */
  proposal: { shown: number; leftOut: number } | null;
  /** What made the acquisition incomplete (a file the prover could not read, a failed model call). */
  incomplete: string[];
  plan: FactsWritePlan;
  area: WriteArea;
}

/** A maintainer's proposal file: `[[guards]]` rows with `name`, `checks`, `source = "path:line"`, `reason`, optional `resource`. */
const maintainerFileSchema = z.strictObject({
  guards: z.array(
    z.strictObject({
      name: z.string().min(1),
      checks: z.enum(['authentication', 'permission', 'ownership']),
      source: z.string().regex(/^[^:]+:\d+$/, 'expected path:line'),
      reason: z.string().trim().min(1, 'expected a reason'),
      resource: z.union([z.number().int().nonnegative(), z.string().min(1)]).optional(),
    }),
  ),
});

/** The rows of a maintainer's proposal file, or an input error naming what is wrong. */
export function maintainerRows(file: { path: string; text: string }): ProposedRow[] {
  const parsed = parseToml(file.text);
  if (!parsed.ok) throw new InputError(`${file.path}: not valid TOML${parsed.line === null ? '' : ` (line ${parsed.line})`}: ${oneLine(parsed.reason)}`);
  const checked = maintainerFileSchema.safeParse(parsed.data);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new InputError(`${file.path}: ${issue ? `${issue.path.join('.') || '(file)'}: ${issue.message}` : 'not a proposal file'}`);
  }
  return checked.data.guards.map((g) => {
    const at = g.source.lastIndexOf(':');
    return { name: g.name, checks: g.checks, resource: g.resource ?? null, path: g.source.slice(0, at), line: Number(g.source.slice(at + 1)), reason: g.reason, origin: 'maintainer' as const };
  });
}

/** The engine's own check helpers as rows: already read as checks, written down to be reviewable and fixed at a commit. */
function extractedRows(inventory: ProverInventory): ProposedRow[] {
  const rows: ProposedRow[] = [];
  for (const helper of inventory.helpers) {
    const kinds = guardKindsOf(helper.kinds);
    // the strongest claim the engine's reading supports
    const checks = kinds.includes('ownership') ? 'ownership' : kinds.includes('permission') ? 'permission' : kinds.includes('authentication') ? 'authentication' : null;
    if (checks === null) continue;
    const name = helper.className === null ? helper.name : helper.qualifiedName;
    rows.push({ name, checks, resource: null, path: helper.path, line: helper.startLine, reason: `called before operations, it ${helper.shape === 'predicate' ? 'returns a check its callers act on' : 'checks on every path before it returns'}`, origin: 'engine' });
  }
  return rows;
}

/** How `.jscr.toml` would change: promoted rows not already declared, appended; the result must parse. */
async function planWrite(area: WriteArea, promoted: readonly PromotedRow[], version: string): Promise<FactsWritePlan> {
  const abs = join(area.root, CONFIG_FILE_NAME);
  const state = await readTarget(area, abs);
  if (state.kind === 'refused') return { action: 'conflict', why: `${CONFIG_FILE_NAME} ${state.why}` };
  const existing = state.kind === 'file' ? state.text : '';
  let declared: JscrConfig;
  try {
    declared = parseConfigText(existing, abs);
  } catch (error) {
    return { action: 'conflict', why: `${CONFIG_FILE_NAME} is not a valid configuration now (${oneLine(error instanceof Error ? error.message : String(error))}); fix it first` };
  }
  const names = new Set(declared.prover.guards.map((g) => g.name));
  const added = promoted.filter((row) => !names.has(row.name));
  const already = promoted.filter((row) => names.has(row.name)).map((row) => row.name);
  if (added.length === 0) return { action: 'nothing', already };
  const header = `# [prover] guards from \`jscr facts init\` at ${version.slice(0, 12)}: each verified against the code it names.`;
  const text = `${existing}${existing === '' || existing.endsWith('\n') ? '' : '\n'}${existing === '' ? '' : '\n'}${header}\n${guardsToml(added)}`;
  try {
    parseConfigText(text, abs);
  } catch (error) {
    return { action: 'conflict', why: `appending the rows would make ${CONFIG_FILE_NAME} invalid (${oneLine(error instanceof Error ? error.message : String(error))}); add them by hand where prover.guards is declared` };
  }
  return { action: 'append', text, added, already };
}

/** Run the acquisition: nothing is written here (see `writeFacts`). */
export async function factsInit(request: FactsInitRequest): Promise<FactsInitOutcome> {
  const { root } = request;
  const commit = await resolveCommit(root, request.head);
  const { config } = await loadConfig({ repoRoot: root, baseText: await configTextAtRevision(root, commit), ...(request.configPath === undefined ? {} : { configPath: request.configPath }) });
  const maintainer = request.fromFile ? maintainerRows(request.fromFile) : [];
  const access = request.propose ? modelAccess(config, request.env, Date.now() + 10 * 60 * 1000) : null;
  if (access !== null && !access.ok) throw new InputError(`--propose needs the configured model: ${access.reason}`);

  const proof = await proveRange({ root, head: commit, ...(request.configPath === undefined ? {} : { configPath: request.configPath }), inventory: true });
  const inventory = proof.result.inventory ?? { entries: [], helpers: [], functions: [], operations: {} };
  const incomplete: string[] = proof.incomplete ? ['some files could not be read or parsed by the prover'] : [];
  const reader: SourceReader = createSourceReader({ root, boundary: await openBoundary(root, { followSymlinks: false }), source: { kind: 'revision', rev: commit }, maxFileBytes: 1024 * 1024, followSymlinks: false });

  let proposal: FactsInitOutcome['proposal'] = null;
  const proposed: ProposedRow[] = [...extractedRows(inventory), ...maintainer];
  if (access?.ok === true) {
    const asked = await proposeRows({ access, config, functions: inventory.functions, recognised: inventory.helpers, reader, book: new SecretBook() });
    proposed.push(...asked.rows);
    proposal = { shown: asked.shown, leftOut: asked.leftOut };
    incomplete.push(...asked.failures.map((f) => `a model call failed: ${f}`));
  }
  const gated = await gateRows({ rows: proposed, recognised: inventory.helpers, reader, version: commit });
  const entriesByFramework: Record<string, number> = {};
  for (const entry of inventory.entries) entriesByFramework[entry.framework] = (entriesByFramework[entry.framework] ?? 0) + 1;
  const area: WriteArea = { root, hooksDir: null, gitDir: null };
  return {
    commit,
    entriesByFramework,
    operations: Object.values(inventory.operations).reduce((a, b) => a + b, 0),
    promoted: gated.promoted,
    refused: gated.refused,
    proposal,
    incomplete,
    plan: await planWrite(area, gated.promoted, commit),
    area,
  };
}

/** Write the plan's new `.jscr.toml` (checked again on the way: no link, inside the repository). */
export async function writeFacts(outcome: FactsInitOutcome): Promise<void> {
  if (outcome.plan.action !== 'append') return;
  await writeTarget(outcome.area, join(outcome.area.root, CONFIG_FILE_NAME), outcome.plan.text, 0o644);
}
