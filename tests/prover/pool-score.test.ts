import { describe, expect, it } from 'vitest';
import { findingIsOn, LINE_WINDOW, type RecordedFinding } from '../../src/prover/pool-score.js';

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
