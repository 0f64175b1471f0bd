import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// A CI run of the suite must see the same jscr output as a local one: jscr prints per-step lines when
// CI is set, so the variable is dropped here, before any test process starts; a test that wants CI
// behaviour sets it for the child it spawns.
delete process.env.CI;

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Child processes, not threads: the end-to-end tests start git and scanners from many files at
    // once, and some tests send signals and need a process of their own.
    pool: 'forks',
    // One test file per core (vitest's default leaves one core idle). Most files wait on git
    // children part of the time, so two at once fill two cores.
    maxWorkers: Math.max(2, availableParallelism()),
    // The files share each worker's loaded modules (the CLI, the grammars, the built-in rules) instead
    // of loading them again per file; no test mocks modules, and each builds its own repositories.
    isolate: false,
  },
});
