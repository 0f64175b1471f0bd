/**
 * `npx tsx bench/startup.ts`: start-up of `jscr --version` and of one gate call (a first-touch Edit),
 * for the single executable (dist/jscr-linux-x64), `node bin/jscr` and, as the floor, `node -e 0`,
 * interleaved so all see the same machine load. Build first: `npm run build:binary`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const runs = Number(process.env.RUNS ?? 20);
const repoRoot = join(import.meta.dirname, '..');
const binary = join(repoRoot, 'dist', `jscr-${process.platform}-${process.arch}`);
if (!existsSync(binary)) {
  process.stderr.write(`bench/startup: ${binary} is missing; run \`npm run build:binary\` first\n`);
  process.exit(2);
}
const temp = mkdtempSync(join(tmpdir(), 'jscr-startup-bench-'));
const project = join(temp, 'project');
mkdirSync(join(project, 'src'), { recursive: true });
writeFileSync(join(project, 'src', 'total.js'), 'function total(a, b) {\n  return a + b;\n}\nmodule.exports = { total };\n');
const env = { PATH: process.env.PATH ?? '', HOME: temp, JSCR_GATE_STATE_DIR: join(temp, 'state') };

function payload(i: number): string {
  // A new session each call: every call is a first touch, the gate's full path.
  return JSON.stringify({
    session_id: `startup-${i}`,
    cwd: project,
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: 'src/total.js', old_string: '  return a + b;', new_string: '  return a - b;' },
  });
}

interface Subject {
  label: string;
  command: string[];
  input: (i: number) => string;
  samples: number[];
}

const node = process.execPath;
const jscrJs = join(repoRoot, 'bin', 'jscr');
const subjects: Subject[] = [
  { label: 'node -e 0', command: [node, '-e', '0'], input: () => '', samples: [] },
  { label: 'binary --version', command: [binary, '--version'], input: () => '', samples: [] },
  { label: 'node bin/jscr --version', command: [node, jscrJs, '--version'], input: () => '', samples: [] },
  { label: 'binary gate', command: [binary, 'gate'], input: payload, samples: [] },
  { label: 'node bin/jscr gate', command: [node, jscrJs, 'gate'], input: payload, samples: [] },
];

function time(subject: Subject, i: number): number {
  const [program, ...args] = subject.command;
  const start = performance.now();
  const result = spawnSync(program ?? node, args, { input: subject.input(i), env, cwd: project });
  const elapsed = performance.now() - start;
  if (result.status !== 0) throw new Error(`${subject.label} exited ${result.status}: ${result.stderr.toString()}`);
  return elapsed;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

for (const subject of subjects) time(subject, -1); // warm the page cache
for (let i = 0; i < runs; i++) for (const subject of subjects) subject.samples.push(time(subject, i));
rmSync(temp, { recursive: true, force: true });

const floor = median(subjects[0]?.samples ?? []);
process.stdout.write(`runs: ${runs} each; binary ${(statSync(binary).size / 1024 / 1024).toFixed(1)} MiB\n`);
for (const subject of subjects) {
  const m = median(subject.samples);
  const min = Math.min(...subject.samples);
  process.stdout.write(`${subject.label.padEnd(24)} median ${m.toFixed(1).padStart(6)} ms  min ${min.toFixed(1).padStart(6)} ms  ${(m / floor).toFixed(2)}x node -e 0\n`);
}
