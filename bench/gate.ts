/**
 * `npx tsx bench/gate.ts`: wall time of one `node bin/jscr gate` call for a typical Edit (a first
 * touch, then retries) against `node -e 0`, measured in the same run. Target: median ≤ 1.5×.
 * A second series times first touches only (a new session each call): each is a denial, so it pays
 * for the state lock and the write. Build first (`node tools/build.mjs`).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const runs = Number(process.env.RUNS ?? 30);
const repoRoot = join(import.meta.dirname, '..');
const temp = mkdtempSync(join(tmpdir(), 'jscr-gate-bench-'));
const project = join(temp, 'project');
mkdirSync(join(project, 'src'), { recursive: true });
const source = Array.from({ length: 200 }, (_, i) => `export function step${i}(value) {\n  // step ${i}\n  return value + ${i};\n}\n`).join('\n');
writeFileSync(join(project, 'src', 'steps.js'), source);
const env = { PATH: process.env.PATH ?? '', HOME: temp, JSCR_GATE_STATE_DIR: join(temp, 'state') };

function payload(i: number, session = `bench-${i % 3}`): string {
  return JSON.stringify({
    session_id: session,
    cwd: project,
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: 'src/steps.js', old_string: `  return value + ${i % 200};`, new_string: `  return value - ${i % 200};` },
  });
}

function time(args: string[], input: string): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { input, env, cwd: project });
  const elapsed = performance.now() - start;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr.toString()}`);
  return elapsed;
}

function summary(samples: number[]): { median: number; p95: number; min: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
  return { median: at(0.5), p95: at(0.95), min: sorted[0] as number };
}

const gate: number[] = [];
const firstTouch: number[] = [];
const baseline: number[] = [];
time(['-e', '0'], '');
time([join(repoRoot, 'bin', 'jscr'), 'gate'], payload(0));
for (let i = 0; i < runs; i++) {
  // interleave so both see the same machine load
  baseline.push(time(['-e', '0'], ''));
  gate.push(time([join(repoRoot, 'bin', 'jscr'), 'gate'], payload(i)));
  firstTouch.push(time([join(repoRoot, 'bin', 'jscr'), 'gate'], payload(i, `bench-first-${i}`)));
}
rmSync(temp, { recursive: true, force: true });
const g = summary(gate);
const f = summary(firstTouch);
const b = summary(baseline);
const fmt = (n: number): string => `${n.toFixed(1)} ms`;
process.stdout.write(`runs: ${runs} each\n`);
process.stdout.write(`node -e 0      median ${fmt(b.median)}  p95 ${fmt(b.p95)}  min ${fmt(b.min)}\n`);
process.stdout.write(`jscr gate Edit median ${fmt(g.median)}  p95 ${fmt(g.p95)}  min ${fmt(g.min)}\n`);
process.stdout.write(`first touch    median ${fmt(f.median)}  p95 ${fmt(f.p95)}  min ${fmt(f.min)}\n`);
process.stdout.write(`ratio (median) ${(g.median / b.median).toFixed(2)}x  (target ≤ 1.50x)\n`);
// On a loaded machine the medians wander; the fastest runs show the gate's own cost with the least noise.
process.stdout.write(`ratio (min)    ${(g.min / b.min).toFixed(2)}x\n`);
process.stdout.write(`first touch ratio (median) ${(f.median / b.median).toFixed(2)}x  (min) ${(f.min / b.min).toFixed(2)}x\n`);
