/**
 * What every attack test does: commit a hostile change on top of a one-file repository, review that
 * commit as CI would, and read back the findings.
 */
import { reposRemovedAfterEach, runJscr, type FileMap } from '../helpers/repo.js';

export interface AttackFinding {
  rule: string;
  /** Which check found it: `flow` (data flow), `rule` (a pattern rule), ... */
  source: string;
  path: string;
  line: number;
}

export interface AttackReview {
  code: number;
  findings: AttackFinding[];
  /** `rule path:line` of each finding, for readable assertions. */
  where: string[];
  /** The report's files not reviewed line by line (data, not reviewed), with why. */
  skipped: { path: string; class: string; reason: string }[];
}

/** A reviewer of one hostile commit each call; its repositories are removed after each test of the calling file. */
export function hostileChangeReviewer(): (files: FileMap) => Promise<AttackReview> {
  const repo = reposRemovedAfterEach();
  return async (files) => {
    const r = repo({ 'README.md': '# app\n' });
    r.commit(files);
    const run = await runJscr(['review', '--range', 'HEAD~1..HEAD', '--no-model', '--format', 'json'], { cwd: r.root });
    // A review that could not run reports nothing; an attack "caught" that way proves nothing.
    if (run.code === 2) throw new Error(`review could not run: ${run.stderr}`);
    const report = JSON.parse(run.stdout) as { findings: AttackFinding[]; skipped_files: AttackReview['skipped'] };
    const findings = report.findings;
    return { code: run.code, findings, where: findings.map((f) => `${f.rule} ${f.path}:${f.line}`), skipped: report.skipped_files };
  };
}
