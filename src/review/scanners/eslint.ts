/**
 * eslint with eslint-plugin-security's recommended rules, both from jscr's own node_modules. jscr
 * writes its own flat config (an .mjs importing the plugin by absolute file URL) to a private
 * temporary directory, so the reviewed repository's eslint config, plugins and inline directives
 * play no part. TypeScript files are not taken: eslint's default parser cannot read them, and jscr
 * ships no TypeScript parser for eslint.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { locateProgram } from '../../policy/process.js';
import { makeFinding } from '../../report/fingerprint.js';
import type { Finding } from '../../report/finding.js';
import { z } from 'zod';
import { pathsForScanner, scannerExtensions } from '../../languages/registry.js';
import { asArgument, jscrBinDirs, jscrPackageRoot, notRun, quoteLines, readReport, reportedLine, rootRelative, runScanner, scanned, scannerCwe } from './common.js';
import type { ScannerAdapter, ScannerInput, ScannerOutcome, UnanalysedFile } from './types.js';
import { temporaryDirectory } from '../../policy/environment.js';

const EXTENSIONS = scannerExtensions('eslint');

/** The fields of eslint's `--format json` that jscr reads: per file, each message's rule, text and lines. */
const eslintReportSchema = z.array(
  z.object({
    filePath: z.string(),
    messages: z.array(
      z.object({
        ruleId: z.string().nullable(),
        severity: z.number(),
        message: z.string(),
        line: reportedLine.optional(),
        endLine: reportedLine.optional(),
        fatal: z.boolean().optional(),
      }),
    ),
  }),
);

type EslintFileResult = z.output<typeof eslintReportSchema>[number];

/** Rules whose findings are direct code execution; the rest of the plugin is noisier. */
const HIGH_RULES = new Set(['security/detect-eval-with-expression', 'security/detect-child-process', 'security/detect-non-literal-require']);

/** The flat config jscr uses: the plugin imported by absolute URL so it resolves from jscr, not the repo. */
function eslintConfigSource(pluginUrl: string): string {
  return [
    `import security from ${JSON.stringify(pluginUrl)};`,
    'export default [',
    '  {',
    `    files: ${JSON.stringify(EXTENSIONS.map((ext) => `**/*${ext}`))},`,
    '    plugins: { security },',
    '    rules: security.configs.recommended.rules,',
    "    languageOptions: { ecmaVersion: 'latest', parserOptions: { ecmaFeatures: { jsx: true } } },",
    "    linterOptions: { reportUnusedDisableDirectives: 'off' },",
    '  },',
    '];',
    '',
  ].join('\n');
}

/**
 * eslint-plugin-security: from the installation of the eslint that will run (so the two match; this is
 * how the single executable, which has no package, finds it beside an eslint on PATH), else from
 * jscr's own package.
 */
function pluginUrl(eslintProgram: string): string | null {
  const root = jscrPackageRoot();
  const from = [eslintManifest(eslintProgram), root === null ? null : join(root, 'package.json')];
  for (const manifest of from) {
    if (manifest === null) continue;
    try {
      return pathToFileURL(createRequire(manifest).resolve('eslint-plugin-security')).href;
    } catch {
      // not installed there; try the next place
    }
  }
  return null;
}

/** A package.json that names the eslint package (any other fields are not read). */
const eslintManifestSchema = z.object({ name: z.literal('eslint') });

/** The package.json of the eslint package that `program` (a bin link or the script itself) belongs to. */
function eslintManifest(program: string): string | null {
  try {
    let dir = dirname(realpathSync(program));
    for (;;) {
      const manifest = join(dir, 'package.json');
      if (existsSync(manifest) && eslintManifestSchema.safeParse(JSON.parse(readFileSync(manifest, 'utf8'))).success) return manifest;
      if (dirname(dir) === dir) return null;
      dir = dirname(dir);
    }
  } catch {
    return null; // unreadable: not an eslint installation we can use
  }
}

function toFindings(root: string, fileResults: EslintFileResult[], contents: Map<string, string>): { findings: Finding[]; unparsed: UnanalysedFile[] } {
  const findings: Finding[] = [];
  const unparsed: UnanalysedFile[] = [];
  for (const fileResult of fileResults) {
    const path = rootRelative(root, fileResult.filePath);
    if (path === null) continue;
    for (const message of fileResult.messages) {
      // A fatal message is a parse failure: eslint ran no rule on the file.
      if (message.fatal === true) {
        unparsed.push({ path, reason: message.message });
        continue;
      }
      if (message.ruleId === null) continue; // a note about the run (an ignored directive), not a finding
      const line = message.line ?? 1;
      const endLine = Math.max(line, message.endLine ?? line);
      findings.push(
        makeFinding({
          rule: `eslint/${message.ruleId}`,
          source: 'scanner:eslint',
          severity: HIGH_RULES.has(message.ruleId) ? 'high' : 'medium',
          confidence: 0.5,
          path,
          line,
          end_line: endLine,
          title: `eslint ${message.ruleId}`,
          message: message.message,
          evidence: quoteLines(contents, path, line, endLine),
          cwe: scannerCwe('eslint', message.ruleId, null),
        }),
      );
    }
  }
  return { findings, unparsed };
}

/** An eslint adapter looking for the program in `binDirs` (jscr's node_modules/.bin by default). */
export function createEslintAdapter(binDirs: string[] = jscrBinDirs()): ScannerAdapter {
  return {
    name: 'eslint',
    filesFor: (paths) => pathsForScanner(paths, 'eslint'),
    async run(input: ScannerInput): Promise<ScannerOutcome> {
      const program = locateProgram('eslint', input.env, binDirs);
      if (program === null) return notRun('eslint is enabled but not installed (eslint not found on PATH)');
      const plugin = pluginUrl(program);
      if (plugin === null) return notRun('eslint is enabled but eslint-plugin-security is not installed beside the eslint that would run');
      const configDir = await mkdtemp(join(temporaryDirectory(), 'jscr-eslint-'));
      try {
        const configFile = join(configDir, 'eslint.config.mjs');
        await writeFile(configFile, eslintConfigSource(plugin));
        const scan = await runScanner({
          name: 'eslint',
          program: 'eslint',
          // --no-inline-config: an `eslint-disable` added by the change must not hide its own findings.
          args: ['--format', 'json', '--config', configFile, '--no-inline-config', '--no-ignore', '--no-warn-ignored', ...input.files.map(asArgument)],
          root: input.root,
          timeoutMs: input.timeoutMs,
          env: input.env,
          searchPath: binDirs,
          completedCodes: [0, 1], // 1: lint errors found
        });
        if (!scan.completed) return scan.outcome;
        const read = readReport(scan, 'eslint', 'JSON report', eslintReportSchema);
        if (!read.ok) return read.outcome;
        const { findings, unparsed } = toFindings(input.root, read.report, input.contents);
        return scanned(findings, input.files.length, unparsed);
      } finally {
        await rm(configDir, { recursive: true, force: true });
      }
    },
  };
}

export const eslint: ScannerAdapter = createEslintAdapter();
