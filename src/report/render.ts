/** One entry point for every report format. */
import type { ReviewReport } from './finding.js';
import { renderGithub } from './github.js';
import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import type { RenderOptions, ReportFormat } from './options.js';
import { renderSarif } from './sarif.js';
import { renderText } from './text.js';

export type { RenderOptions, ReportFormat } from './options.js';
export { githubStepSummary } from './github.js';

const RENDERERS: Record<ReportFormat, (report: ReviewReport, opts: RenderOptions) => string> = {
  text: renderText,
  json: renderJson,
  sarif: renderSarif,
  markdown: renderMarkdown,
  github: renderGithub,
};

/** Render a report in one of the `--format` formats. Pure: the same report gives the same string. */
export function render(report: ReviewReport, format: ReportFormat, opts: RenderOptions): string {
  return RENDERERS[format](report, opts);
}
