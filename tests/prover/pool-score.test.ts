import { describe, expect, it } from 'vitest';
import type { Pool } from '../../src/prover/pool-file.js';
import { findingIsOn, LINE_WINDOW, summarisePool, type RecordedFinding, type RunRecord } from '../../src/prover/pool-score.js';

const finding: RecordedFinding = {
  path: 'src/Repo.php',
  line: 40,
  function: 'App.Repo.save',
  label: 'unguarded_path',
  missing: 'path_guard',
  cwe: 'CWE-862',
  operation: { id: 'x', kind: 'data_write', line: 40 },
  entry: { path: 'src/Controller.php', function: 'Controller.update', line: 12 },
  hops: [{ path: 'src/Controller.php', function: 'Controller.update', line: 15 }],
};

describe('a finding on an expected location', () => {
  it('matches the named function through the operation, the entry or a hop, in the same file only', () => {
    expect(findingIsOn(finding, { file: 'src/Repo.php', function: 'save' })).toBe(true);
    expect(findingIsOn(finding, { file: 'src/Repo.php', function: 'Repo::save' })).toBe(true);
    expect(findingIsOn(finding, { file: 'src/Controller.php', function: 'Controller.update' })).toBe(true);
    // same method name, another class or another file: not this location
    expect(findingIsOn(finding, { file: 'src/Repo.php', function: 'OtherRepo.save' })).toBe(false);
    expect(findingIsOn(finding, { file: 'src/Other.php', function: 'save' })).toBe(false);
    // a name that only ends like the method is another method
    expect(findingIsOn(finding, { file: 'src/Repo.php', function: 'ave' })).toBe(false);
  });

  it('with a line only, matches within the window of any line the finding runs through', () => {
    expect(findingIsOn(finding, { file: 'src/Controller.php', line: 15 + LINE_WINDOW })).toBe(true);
    expect(findingIsOn(finding, { file: 'src/Controller.php', line: 15 + LINE_WINDOW + 1 })).toBe(false);
    expect(findingIsOn(finding, { file: 'src/Repo.php', line: 40 - LINE_WINDOW })).toBe(true);
    expect(findingIsOn(finding, { file: 'src/Repo.php', line: 20 })).toBe(false);
  });
});

describe('locations a fix left open', () => {
  const record = (role: 'vulnerable' | 'fix', findings: RecordedFinding[]): RunRecord => ({
    key: `team/${role}`,
    id: 'team',
    role,
    repo: 'r',
    base: 'a',
    head: 'b',
    status: 'complete',
    reason: null,
    seconds: 1,
    files_read: 3,
    bytes_read: 30,
    findings,
  });
  const on = (fn: string): RecordedFinding => ({ ...finding, function: `Repo.${fn}`, hops: [] });
  const pool: Pool = {
    schema_version: 1,
    changes: [
      {
        id: 'team',
        kind: 'fix',
        repo: 'r',
        fixed: 'aaaaaaa',
        locations: [
          { file: 'src/Repo.php', function: 'member' },
          { file: 'src/Repo.php', function: 'grant', open_after_fix: 'a later advisory' },
        ],
      },
    ],
  };

  it('count for recall, not for gone-at-fix: staying found at the fix is the right answer', () => {
    const records = new Map([
      ['team/vulnerable', record('vulnerable', [on('member'), on('grant')])],
      ['team/fix', record('fix', [on('grant')])],
    ]);
    const summary = summarisePool(pool, records, () => ['team/vulnerable', 'team/fix']);
    expect(summary).toMatchObject({ locations: 2, found: 2, gone_at_fix: 1, gone_at_fix_share: 1, open_after_fix: 1, kept_open: 1 });
  });

  it('one that vanished at the fix is not kept (the prover took the weak fix for enough)', () => {
    const records = new Map([
      ['team/vulnerable', record('vulnerable', [on('member'), on('grant')])],
      ['team/fix', record('fix', [])],
    ]);
    expect(summarisePool(pool, records, () => ['team/vulnerable', 'team/fix'])).toMatchObject({ gone_at_fix: 1, open_after_fix: 1, kept_open: 0 });
  });
});
