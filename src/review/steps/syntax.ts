/**
 * The IR of every changed file jscr parses, built once for the steps after it (grammars loaded together,
 * before the first parse). A parse the deadline or the per-file limit stopped is not passed on.
 */
import type { Node } from 'web-tree-sitter';
import type { FlowFile } from '../../flow/ir.js';
import { prepareLowering } from '../../flow/index.js';
import { buildIR, MAX_FILE_PARSE_MS, parseWasStopped, type FileIR } from '../../syntax/ir.js';
import { loadGrammars } from '../../syntax/parser.js';
import { learnJoinedSecretsOfTree } from '../../redact/joined-literals.js';
import { languageForFile } from '../../syntax/languages.js';
import { unfinishedDetail } from '../deadline.js';
import { flowSwitchedOff } from '../flow-switch.js';
import { ranUnless, result, type ReviewStep } from './step.js';
import type { ReadFiles } from './read-files.js';

export interface Syntax {
  /** By path; files in no language jscr parses are absent. */
  irs: ReadonlyMap<string, FileIR>;
  /** The flow IR of each parsed file whose language has a data-flow front end, lowered from the same tree. */
  flowFiles: ReadonlyMap<string, FlowFile>;
  /** Files the flow front end could not lower, with why. */
  flowFailures: readonly string[];
}

export const syntaxStep: ReviewStep<'syntax', { read_files: ReadFiles }, Syntax> = {
  name: 'syntax',
  run: async ({ read_files }, { deadline, env, book }) => {
    const irs = new Map<string, FileIR>();
    const flowFiles = new Map<string, FlowFile>();
    const flowFailures: string[] = [];
    const langs = new Set(read_files.readable.map((f) => languageForFile(f.diff.path, f.text)).filter((l) => l !== null));
    await loadGrammars(langs);
    let degraded = 0;
    const lowering = !flowSwitchedOff(env);
    const unfinished: string[] = [];
    for (const file of read_files.readable) {
      const language = languageForFile(file.diff.path, file.text);
      if (!language) continue;
      if (deadline.expired()) {
        unfinished.push(file.diff.path);
        continue;
      }
      // Lowered for data flow while the tree is alive, the function scan riding along the IR's walk,
      // so nothing parses or walks the file a second time.
      const flow = lowering ? prepareLowering(file.diff.path, language, file.text) : null;
      const withTree = (root: Node) => {
        // Secrets written as joined literals, read while the tree is alive (src/redact/joined-literals.ts).
        learnJoinedSecretsOfTree(book, file.text, language, root);
        const lowered = flow?.finish(root);
        if (lowered?.ok === true) flowFiles.set(file.diff.path, lowered.file);
        else if (lowered?.ok === false) flowFailures.push(lowered.reason);
      };
      const ir = await buildIR(file.diff.path, language, file.text, { stopAt: Date.now() + deadline.remainingMs(), withTree, ...(flow?.visitor ? { visitor: flow.visitor } : {}) });
      if (parseWasStopped(ir)) {
        flowFiles.delete(file.diff.path);
        unfinished.push(file.diff.path);
        continue; // a half-built IR is not passed on as if it were the file
      }
      if (ir.degradations.length > 0 || ir.hasErrors) degraded++;
      irs.set(file.diff.path, ir);
    }
    const detail = `${irs.size} file(s) parsed${degraded ? `, ${degraded} with parse errors or degradations` : ''}`;
    const cause = deadline.expired() ? undefined : `parsing a file reached its limit of ${MAX_FILE_PARSE_MS / 1000} s`;
    return result(ranUnless(unfinished.length > 0 ? unfinishedDetail('parsing', unfinished, cause) : null, detail), { irs, flowFiles, flowFailures });
  },
  notRun: () => ({ irs: new Map(), flowFiles: new Map(), flowFailures: [] }),
};
