/**
 * secretlint with its recommended preset, from jscr's own node_modules. The config is written to a
 * private temporary directory outside the scanned tree. No secret value leaves this module: secretlint
 * masks its messages, and the evidence is quoted from the admitted text with every reported range
 * replaced by a marker.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeFinding } from '../../report/fingerprint.js';
import type { Finding } from '../../report/finding.js';
import type { KnownSecret } from '../../redact/mask.js';
import { z } from 'zod';
import { asArgument, jscrBinDirs, quoteLines, readReport, reportedLine, rootRelative, runScanner, scanned, scanWithoutDirectives } from './common.js';
import type { ScannerAdapter, ScannerInput, UnanalysedFile } from './types.js';
import { temporaryDirectory } from '../../policy/environment.js';

/** The fields of secretlint's `--format json` that jscr reads: per file, each message's rule and where it is. */
const secretlintReportSchema = z.array(
  z.object({
    filePath: z.string(),
    messages: z.array(
      z.object({
        ruleId: z.string(),
        messageId: z.string().optional(),
        message: z.string(),
        range: z.tuple([z.number().int(), z.number().int()]),
        loc: z.object({ start: z.object({ line: reportedLine }), end: z.object({ line: reportedLine }) }),
      }),
    ),
  }),
);

type SecretlintFileResult = z.output<typeof secretlintReportSchema>[number];

const CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend' }] };
export const SECRET_MARKER = '[REDACTED]';

/** `@secretlint/secretlint-rule-github` → `github`. */
function shortRuleId(ruleId: string): string {
  return ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
}

/** The file's text with every reported range replaced by the marker, newlines kept so lines stay put. */
function maskRanges(text: string, ranges: [number, number][]): string {
  let masked = text;
  for (const [start, end] of [...ranges].sort((a, b) => b[0] - a[0])) {
    if (start < 0 || end > masked.length || start >= end) continue;
    const hidden = masked
      .slice(start, end)
      .split('\n')
      .map((segment) => (segment.length > 0 ? SECRET_MARKER : ''))
      .join('\n');
    masked = masked.slice(0, start) + hidden + masked.slice(end);
  }
  return masked;
}

function scrub(message: string, secrets: string[]): string {
  return secrets.reduce((text, secret) => (secret.length >= 4 ? text.split(secret).join(SECRET_MARKER) : text), message);
}

function toFindings(root: string, fileResults: SecretlintFileResult[], contents: Map<string, string>, learn: (secret: KnownSecret) => void): Finding[] {
  const findings: Finding[] = [];
  for (const fileResult of fileResults) {
    const path = rootRelative(root, fileResult.filePath);
    if (path === null) continue;
    const text = contents.get(path) ?? '';
    const ranges = fileResult.messages.map((m) => m.range);
    const masked = new Map([[path, maskRanges(text, ranges)]]);
    const secrets = ranges.map(([start, end]) => text.slice(start, end));
    for (const message of fileResult.messages) {
      const rule = shortRuleId(message.ruleId);
      const [start, end] = message.range;
      if (start >= 0 && end <= text.length && start < end) learn({ rule: `secretlint-${rule}`, value: text.slice(start, end) });
      const line = message.loc.start.line;
      const endLine = Math.max(line, message.loc.end.line);
      findings.push(
        makeFinding({
          rule: `secretlint/${rule}`,
          source: 'scanner:secretlint',
          severity: 'high',
          confidence: 0.8,
          path,
          line,
          end_line: endLine,
          title: `secretlint ${rule}: a secret in the change`,
          message: scrub(message.message, secrets),
          evidence: quoteLines(masked, path, line, endLine),
          cwe: 'CWE-798',
          extra: message.messageId ? { message_id: message.messageId } : undefined,
        }),
      );
    }
  }
  return findings;
}

/**
 * The files secretlint was given but left out of its report. It skips, without a word, any path under
 * `node_modules/` or `.git/` and its own config and ignore files, whatever it is told; a change can put
 * its secret there, so such a file is one secretlint did not analyse, never one it found clean.
 */
function filesNotListed(root: string, files: readonly string[], fileResults: readonly SecretlintFileResult[]): UnanalysedFile[] {
  const listed = new Set(fileResults.map((r) => rootRelative(root, r.filePath)));
  return files.filter((path) => !listed.has(path)).map((path) => ({ path, reason: 'secretlint skips this path by its built-in ignore list' }));
}

/** A secretlint adapter looking for the program in `binDirs` (jscr's node_modules/.bin by default). */
export function createSecretlintAdapter(binDirs: string[] = jscrBinDirs()): ScannerAdapter {
  return {
    name: 'secretlint',
    // Secrets hide in any text file; the engine passes only admitted text, never binaries.
    filesFor: (paths) => [...paths],
    // `secretlint-disable`, `-disable-line`, `-disable-next-line` and `-enable` comments, which it honours with any config.
    run: (input: ScannerInput) => scanWithoutDirectives(input, /\bsecretlint(?=-(?:disable|enable))/gi, async (input) => {
      const configDir = await mkdtemp(join(temporaryDirectory(), 'jscr-secretlint-'));
      try {
        const configFile = join(configDir, 'secretlintrc.json');
        await writeFile(configFile, JSON.stringify(CONFIG));
        // secretlint reads `.secretlintignore` from its working folder, the copy of the change: a
        // change could add one that ignores its own secret. An empty one of jscr's takes its place.
        const ignoreFile = join(configDir, 'secretlintignore');
        await writeFile(ignoreFile, '');
        const scan = await runScanner({
          name: 'secretlint',
          program: 'secretlint',
          // --no-glob: paths are literal file names, never patterns a file name could smuggle in.
          args: ['--format', 'json', '--no-color', '--no-glob', '--secretlintrc', configFile, '--secretlintignore', ignoreFile, ...input.files.map(asArgument)],
          root: input.root,
          timeoutMs: input.timeoutMs,
          env: input.env,
          searchPath: binDirs,
          completedCodes: [0, 1], // 1: secrets found
        });
        if (!scan.completed) return scan.outcome;
        const read = readReport(scan, 'secretlint', 'JSON report', secretlintReportSchema);
        if (!read.ok) return read.outcome;
        const findings = toFindings(input.root, read.report, input.contents, input.learnSecret ?? (() => {}));
        return scanned(findings, input.files.length, filesNotListed(input.root, input.files, read.report));
      } finally {
        await rm(configDir, { recursive: true, force: true });
      }
    }),
  };
}

export const secretlint: ScannerAdapter = createSecretlintAdapter();
