/**
 * The application's own first-run installer (a top-level install/ folder) writes its own files and
 * configuration on purpose, before any account exists; the same handler anywhere else is a finding,
 * and an installer that also administers users is still reported for that.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const app = (extra = ''): string => `const express = require('express');
const fs = require('fs');
const app = express();
app.post('/', install);
async function install(req, res) {
  await fs.promises.unlink(req.body.file);
${extra}
  res.send('ok');
}
module.exports = app;
`;

async function findings(path: string, text: string): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: [{ path, text }], touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.entryPoints).toBeGreaterThan(0);
  return result.findings.map((f) => f.operation.kind);
}

describe('the first-run installer', () => {
  it('writing its own files is the installer\'s purpose; the same route elsewhere is a finding', async () => {
    expect(await findings('install/web.js', app())).toEqual([]);
    expect(await findings('src/routes/files.js', app())).toEqual(['file_write']);
    expect(await findings('plugins/install/web.js', app())).toEqual(['file_write']);
  });
});

describe('a change cannot file its own handler as the installer', () => {
  it('an installer route the change writes is proved like any other; the one the base had keeps its purpose', async () => {
    const text = app();
    const lines = new Set(text.split('\n').map((_, i) => i + 1));
    const changed = await proveChange({ root: '/repo', files: [{ path: 'install/web.js', text }], touched: [{ path: 'install/web.js', lines }], maxDepth: 3, fanOut: 25 });
    expect(changed.findings.map((f) => f.operation.kind)).toEqual(['file_write']);
    const elsewhere = await proveChange({ root: '/repo', files: [{ path: 'install/web.js', text }, { path: 'README.js', text: '// notes\n' }], touched: [{ path: 'README.js', lines: new Set([1]) }], maxDepth: 3, fanOut: 25 });
    expect(elsewhere.findings).toEqual([]);
  });
});
