/**
 * `jscr facts init`: show the prover's facts for this repository (what the engine recognises, and the
 * check helpers promoted through the gate); with --write, append the promoted rows to `.jscr.toml`.
 * Exit 0 shown or written, 2 bad input or a write conflict, 3 incomplete (a file the prover could not
 * read, a failed model call): a partial acquisition is never written.
 */
import { resolve } from 'node:path';
import { readRegularFile } from '../io.js';
import { InputError, oneLine } from '../errors.js';
import type { CommandIO, ExitCode } from '../io.js';
import { resolveRepository } from '../git/change.js';
import { maskReport, SecretBook } from '../redact/index.js';
import { escapeOneLine } from '../report/escape.js';

export interface FactsInitOptions {
  repo?: string;
  head?: string;
  propose?: boolean;
  from?: string;
  config?: string;
  write?: boolean;
  format: 'text' | 'json';
}

const MAX_PROPOSAL_FILE_BYTES = 1024 * 1024;

/** `jscr facts init`. */
export async function factsInitCommand(options: FactsInitOptions, io: CommandIO): Promise<ExitCode> {
  const root = await resolveRepository(resolve(io.cwd, options.repo ?? '.'));
  let fromFile: { path: string; text: string } | undefined;
  if (options.from !== undefined) {
    const path = resolve(io.cwd, options.from);
    const read = readRegularFile(path, MAX_PROPOSAL_FILE_BYTES);
    if (!read.ok) throw new InputError(`--from ${escapeOneLine(path)}: ${read.problem}`);
    fromFile = { path, text: Buffer.from(read.bytes).toString('utf8') };
  }
  const { factsInit, writeFacts } = await import('../facts/init.js');
  const { guardsToml } = await import('../facts/rows.js');
  io.stderr.write(`jscr facts init: reading ${options.propose === true ? 'and asking the model about ' : ''}the repository\n`);
  const raw = await factsInit({
    root,
    head: options.head ?? 'HEAD',
    propose: options.propose === true,
    ...(fromFile ? { fromFile } : {}),
    ...(options.config === undefined ? {} : { configPath: resolve(io.cwd, options.config) }),
    env: io.env,
  });
  // Reasons and evidence quote code: secret shapes in them are masked like every report string.
  const outcome = maskReport(raw, new SecretBook());
  const incomplete = outcome.incomplete.length > 0;
  const write = options.write === true && !incomplete && outcome.plan.action === 'append';
  if (write) {
    try {
      // the masked plan: evidence quoted into comments must not copy a secret into .jscr.toml
      await writeFacts({ ...raw, plan: outcome.plan });
    } catch (error) {
      throw new InputError(`facts init could not write .jscr.toml (${oneLine(error instanceof Error ? error.message : String(error))})`);
    }
  }
  const plan = outcome.plan;
  if (options.format === 'json') {
    io.stdout.write(`${JSON.stringify({
      commit: outcome.commit,
      entries_by_framework: outcome.entriesByFramework,
      operation_sites: outcome.operations,
      proposal: outcome.proposal,
      promoted: outcome.promoted.map((r) => ({ name: r.name, checks: r.checks, resource: r.resource, source: r.path, region: `${r.region.first}-${r.region.last}`, version: r.version, origin: r.origin, reason: r.reason, evidence: r.evidence })),
      refused: outcome.refused.map((r) => ({ name: r.row.name, checks: r.row.checks, source: `${r.row.path}:${r.row.line}`, origin: r.row.origin, reason: r.reason })),
      incomplete: outcome.incomplete,
      write: plan.action === 'conflict' ? { action: 'conflict', why: plan.why } : plan.action === 'nothing' ? { action: 'nothing', already_declared: plan.already } : { action: write ? 'written' : 'would_append', rows: plan.added.length, already_declared: plan.already },
    }, null, 2)}\n`);
  } else {
    const frameworks = Object.entries(outcome.entriesByFramework).map(([f, n]) => `${f} ${n}`).join(', ');
    const lines = [
      `jscr facts init: ${escapeOneLine(root)} at ${outcome.commit.slice(0, 12)}`,
      `  entries: ${Object.values(outcome.entriesByFramework).reduce((a, b) => a + b, 0)}${frameworks === '' ? ' (no supported framework recognised)' : ` (${escapeOneLine(frameworks)})`}; protected operation sites: ${outcome.operations}`,
      ...(outcome.proposal === null ? [] : [`  asked the model about ${outcome.proposal.shown} candidate function(s)${outcome.proposal.leftOut > 0 ? ` (${outcome.proposal.leftOut} more left out by the bound)` : ''}`]),
      `promoted (${outcome.promoted.length}):`,
      ...outcome.promoted.map((r) => `  ${escapeOneLine(r.name)} (${r.checks}) ${escapeOneLine(r.path)}:${r.region.first}-${r.region.last} [${r.origin}]: ${escapeOneLine(r.evidence)}`),
      `refused (${outcome.refused.length}):`,
      ...outcome.refused.map((r) => `  ${escapeOneLine(r.row.name)} (${r.row.checks}) ${escapeOneLine(r.row.path)}:${r.row.line} [${r.row.origin}]: ${escapeOneLine(r.reason)}`),
    ];
    if (plan.action === 'conflict') lines.push(`.jscr.toml: not written: ${escapeOneLine(plan.why)}`);
    else if (plan.action === 'nothing') lines.push(`.jscr.toml: nothing to add${plan.already.length > 0 ? ` (${plan.already.length} already declared)` : ''}`);
    else if (write) lines.push(`.jscr.toml: wrote ${plan.added.length} [[prover.guards]] row(s)`);
    else lines.push(incomplete ? '.jscr.toml: not written, the acquisition is incomplete:' : `.jscr.toml: would append (run again with --write to write it):`, '', guardsToml(outcome.plan.action === 'append' ? outcome.plan.added : []).replace(/\n$/, ''));
    io.stdout.write(`${lines.join('\n')}\n`);
  }
  for (const reason of outcome.incomplete) io.stderr.write(`jscr facts init: incomplete: ${escapeOneLine(reason)}\n`);
  if (plan.action === 'conflict' && options.write === true) return 2;
  return incomplete ? 3 : 0;
}
