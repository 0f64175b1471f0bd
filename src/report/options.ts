import type { Severity } from './finding.js';

/** The report formats of `jscr review --format`. */
export const REPORT_FORMATS = ['text', 'json', 'sarif', 'markdown', 'github'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** What a renderer knows about a rule beyond its findings (SARIF rule metadata). */
export interface RuleMeta {
  /** The rule id, e.g. `jscr/sql-string-concat`. */
  id: string;
  /** One line naming the problem; SARIF `shortDescription`. */
  title: string;
  /** The rule's declared severity; SARIF `defaultConfiguration.level` and `security-severity`. */
  severity: Severity;
  /** `CWE-78` style, or null. */
  cwe: string | null;
  /** The longer explanation; SARIF `fullDescription`. */
  message: string;
  /** A page about the rule, when there is one. */
  helpUri?: string;
}

/** Options every renderer takes. */
export interface RenderOptions {
  /** ANSI colour in the text format; the caller decides (a TTY and no NO_COLOR). */
  color: boolean;
  /** Metadata of the rules that may appear in the findings; rules not listed are described from their findings. */
  rules?: RuleMeta[];
}
