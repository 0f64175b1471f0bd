/**
 * A change that trips a budget so that part of it is never looked at: the review names the budget
 * and is incomplete (exit 3), never clean.
 */
import { describe, expect, it } from 'vitest';
import { hostileChangeReviewer } from './helpers.js';

const review = hostileChangeReviewer();

const HANDLER = [
  'function handler(req, res) {',
  '  const p = req.query.file;',
  '  const full = "/srv/data/" + p;',
  '  fs.readFileSync(full);',
  '}',
].join('\n');

describe('attack: budgets tripped on purpose', () => {
  it('a request-to-file-path flow nested deeper than data flow lowers: exit 3, not clean', async () => {
    const depth = 400;
    const file = `const fs = require("fs");\nconst x = ${'[\n'.repeat(depth)}${HANDLER}\n${']\n'.repeat(depth)};\nmodule.exports = x;\n`;
    const result = await review({ 'src/deep.js': file });
    expect(result.code).toBe(3);
  });

  it('the same flow at a normal depth is found (the fixture holds a real flow)', async () => {
    const result = await review({ 'src/flat.js': `const fs = require("fs");\n${HANDLER}\nmodule.exports = handler;\n` });
    expect(result.code).toBe(1);
    expect(result.where).toContain('jscr/js-path src/flat.js:5');
  });
});
