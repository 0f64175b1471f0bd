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
    pool: 'forks',
  },
});
