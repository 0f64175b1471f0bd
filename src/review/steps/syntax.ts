/**
 * The IR of every changed file jscr parses, built once for the steps after it (grammars loaded together,
 * before the first parse). A parse the deadline or the per-file limit stopped is not passed on.
 */
import { buildIR, MAX_FILE_PARSE_MS, parseWasStopped, type FileIR } from '../../syntax/ir.js';
import { loadGrammars } from '../../syntax/parser.js';
import { languageForPath } from '../../syntax/languages.js';
import { unfinishedDetail } from '../deadline.js';
import { ranUnless, result, type ReviewStep } from './step.js';
import type { ReadFiles } from './read-files.js';

export interface Syntax {
  /** By path; files in no language jscr parses are absent. */
  irs: ReadonlyMap<string, FileIR>;
}

export const syntaxStep: ReviewStep<'syntax', { read_files: ReadFiles }, Syntax> = {
  name: 'syntax',
  run: async ({ read_files }, { deadline }) => {
    const irs = new Map<string, FileIR>();
    const langs = new Set(read_files.readable.map((f) => languageForPath(f.diff.path)).filter((l) => l !== null));
    await loadGrammars(langs);
    let degraded = 0;
    const unfinished: string[] = [];
    for (const file of read_files.readable) {
      const language = languageForPath(file.diff.path);
      if (!language) continue;
      if (deadline.expired()) {
        unfinished.push(file.diff.path);
        continue;
      }
      const ir = await buildIR(file.diff.path, language, file.text, { stopAt: Date.now() + deadline.remainingMs() });
      if (parseWasStopped(ir)) {
        unfinished.push(file.diff.path);
        continue; // a half-built IR is not passed on as if it were the file
      }
      if (ir.degradations.length > 0 || ir.hasErrors) degraded++;
      irs.set(file.diff.path, ir);
    }
    const detail = `${irs.size} file(s) parsed${degraded ? `, ${degraded} with parse errors or degradations` : ''}`;
    const cause = deadline.expired() ? undefined : `parsing a file reached its limit of ${MAX_FILE_PARSE_MS / 1000} s`;
    return result(ranUnless(unfinished.length > 0 ? unfinishedDetail('parsing', unfinished, cause) : null, detail), { irs });
  },
  notRun: () => ({ irs: new Map() }),
};
