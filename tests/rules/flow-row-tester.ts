/**
 * The rule tester for data-flow rows: every `tests.flagged` snippet of a row must give a data-flow
 * finding that uses the row (its own finding for a sink or check, a path starting at it for a source,
 * a path through it for a propagator), and every `tests.quiet` snippet must give none at all.
 */
import { analyseFile, lowerText, type FlowFinding } from '../../src/flow/index.js';
import { loadGrammars } from '../../src/syntax/parser.js';
import type { FlowRowTests, LoadedFlowRows } from '../../src/rules/flow-load.js';
import type { FlowRows } from '../../src/flow/rows.js';

export interface SnippetOutcome {
  row: string;
  expectation: 'flagged' | 'quiet';
  snippet: string;
  /** Empty when the snippet behaved as its row says; otherwise why not. */
  problem: string;
}

function usesRow(finding: FlowFinding, test: FlowRowTests): boolean {
  switch (test.table) {
    case 'sink':
    case 'check':
      return finding.rowId === test.rowId;
    case 'source':
      return finding.sourceRow === test.rowId;
    case 'propagator':
      return finding.via.includes(test.rowId);
    default:
      return true;
  }
}

/** Snippets run as if in a project that declares every package a row requires (`requires_dependency`) and holds every text (`requires_text`). */
function dependenciesNamed(rows: FlowRows): Set<string> {
  return new Set(rows.sinks.flatMap((row) => [...(row.requiresDependency ?? [])]));
}

export async function runFlowRowTests(loaded: LoadedFlowRows): Promise<SnippetOutcome[]> {
  await loadGrammars(loaded.tests.flatMap((t) => t.languages));
  const outcomes: SnippetOutcome[] = [];
  for (const test of loaded.tests) {
    const language = test.languages[0];
    if (language === undefined) continue;
    const rows = loaded.byLanguage.get(language);
    if (rows === undefined) continue;
    for (const [expectation, snippets] of [['flagged', test.flagged], ['quiet', test.quiet]] as const) {
      for (const snippet of snippets) {
        const lowered = await lowerText(`snippet.${language}`, language, snippet, Date.now() + 10_000);
        if (lowered === null || !lowered.ok) {
          outcomes.push({ row: test.rowId, expectation, snippet, problem: lowered === null ? `no front end for ${language}` : lowered.reason });
          continue;
        }
        const { findings } = analyseFile(lowered.file, { rows, dependencies: dependenciesNamed(rows), projectTexts: new Set(rows.sinks.flatMap((row) => row.requiresText ?? [])) });
        const problem =
          expectation === 'flagged'
            ? findings.some((f) => usesRow(f, test)) ? '' : `expected a finding using ${test.rowId}, got ${findings.map((f) => `${f.rowId}@${f.line}`).join(', ') || 'none'}`
            : findings.length === 0 ? '' : `expected no finding, got ${findings.map((f) => `${f.rowId}@${f.line}`).join(', ')}`;
        outcomes.push({ row: test.rowId, expectation, snippet, problem });
      }
    }
  }
  return outcomes;
}
