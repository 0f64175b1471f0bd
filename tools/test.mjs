// `npm test`: the build first (the spawned tests run dist/, and the build deletes it before writing),
// then the type check, the lint and the test suite side by side, since none of them writes what another
// reads. Exits non-zero when any of them failed, after all have finished, so every failure is shown.
//
// Off CI the lint keeps a cache (.eslintcache, by file content). A typed rule can change its verdict on
// a file that did not change (a type it uses did), which a cache does not see: CI always lints afresh.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Run one program with this terminal; resolves to true when it exited 0. */
function run(label, program, args) {
  return new Promise((resolve) => {
    const child = spawn(program, args, { cwd: root, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`${label}: could not start (${error.message})`);
      resolve(false);
    });
    child.on('close', (code, signal) => {
      if (code !== 0) console.error(`${label}: failed (${signal ?? `exit code ${code}`})`);
      resolve(code === 0);
    });
  });
}

const onCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
const lintCache = onCi ? [] : ['--cache', '--cache-strategy', 'content', '--cache-location', join(root, '.eslintcache')];

if (!(await run('build', process.execPath, [join(root, 'tools', 'build.mjs')]))) process.exit(1);
const results = await Promise.all([
  run('tsc', bin('tsc'), ['-p', '.']),
  run('eslint', bin('eslint'), ['--no-config-lookup', '-c', 'eslint.config.mjs', ...lintCache, 'src', 'tests', 'tools', 'bench']),
  run('vitest', bin('vitest'), ['run', ...process.argv.slice(2)]),
]);
process.exit(results.every(Boolean) ? 0 : 1);
