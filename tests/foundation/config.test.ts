import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, loadConfig, parseConfigText, type JscrConfig } from '../../src/config/index.js';
import { ConfigError } from '../../src/errors.js';

const FILE = '/repo/.jscr.toml';

/** The ConfigError thrown for `text`, or a failure if it parses. */
function configErrorOf(text: string): ConfigError {
  try {
    parseConfigText(text, FILE);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`expected a ConfigError for:\n${text}`);
}

describe('defaults', () => {
  it('holds every SPEC 3 default when no file exists', () => {
    expect(defaultConfig()).toEqual({
      repository: { follow_symlinks: false },
      review: { fail_on: 'low', min_confidence: 0, max_findings: 200, scope: 'changed-lines', deadline_s: 600, exclude: [], max_file_bytes: 2097152 },
      suppress: [],
      context: { max_files: 40, max_total_bytes: 262144, max_expansion_rounds: 2 },
      scanners: { builtin: true, enabled: [] },
      redaction: { block_on_secret: true },
      egress: { enabled: false },
      net: { connect: [] },
      model: { provider: 'none', base_url: null, name: null, api_key_env: null, timeout_s: 60, max_output_tokens: 4096, max_input_bytes: 204800 },
      verify: { enabled: false },
      prover: { enabled: true, max_depth: 3, fan_out: 25, scope: true, guards: [], public: [] },
      gate: { enabled: true, state_dir: null, exempt_globs: [], full_denials: 3, max_denials: null, metrics: false, external_contract_question: false },
    });
  });

  it('an empty file is the defaults', () => {
    expect(parseConfigText('', FILE)).toEqual(defaultConfig());
  });

  it('turns verification on by default once a model is configured', () => {
    const config = parseConfigText('[model]\nprovider = "anthropic"\nname = "claude-x"\napi_key_env = "ANTHROPIC_API_KEY"\n', FILE);
    expect(config.verify.enabled).toBe(true);
    expect(parseConfigText('[model]\nprovider = "openai"\nname = "m"\n[verify]\nenabled = false\n', FILE).verify.enabled).toBe(false);
  });
});

const EVERY_KEY_OVERRIDDEN = `
[repository]
follow_symlinks = true

[review]
fail_on = "high"
min_confidence = 0.5
max_findings = 10
scope = "changed-files"
deadline_s = 30
exclude = ["vendor/**", "public/build/**"]
max_file_bytes = 1000

[[suppress]]
rule = "py.subprocess-shell"
path = "scripts/**/*.py"
fingerprint = "abc123"
reason = "build scripts run only in CI with fixed input"
expires = 2031-01-31

[[suppress]]
rule = "jscr/js-eval-dynamic"
fingerprint = "def456"
reason = "accepted risk"
expires = "2030-06-01"

[context]
max_files = 5
max_total_bytes = 1000
max_expansion_rounds = 0

[scanners]
builtin = true
enabled = ["bandit", "shellcheck", "secretlint", "eslint", "semgrep", "gitleaks"]

[redaction]
block_on_secret = false

[egress]
enabled = true

[net]
connect = ["api.openai.com:443", "[::1]:8080"]

[model]
provider = "openai"
base_url = "https://api.openai.com/v1"
name = "gpt-test"
api_key_env = "OPENAI_API_KEY"
timeout_s = 5
max_output_tokens = 100
max_input_bytes = 4096

[verify]
enabled = false

[prover]
enabled = false
max_depth = 1
fan_out = 2
scope = false

[[prover.guards]]
name = "Acl::demand"
checks = "ownership"
resource = "project"

[[prover.public]]
route = "/login"
reason = "the sign-in page"

[gate]
enabled = false
state_dir = "/var/tmp/gate"
exempt_globs = ["docs/**"]
full_denials = 0
max_denials = 7
metrics = true
external_contract_question = true
`;

function leafPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => leafPaths(inner, prefix === '' ? key : `${prefix}.${key}`));
}

function at(config: JscrConfig, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], config);
}

describe('every key can be overridden', () => {
  const config = parseConfigText(EVERY_KEY_OVERRIDDEN, FILE);

  it('reads every value from the file', () => {
    expect(config.repository.follow_symlinks).toBe(true);
    expect(config.review).toEqual({ fail_on: 'high', min_confidence: 0.5, max_findings: 10, scope: 'changed-files', deadline_s: 30, exclude: ['vendor/**', 'public/build/**'], max_file_bytes: 1000 });
    expect(config.suppress).toEqual([
      { rule: 'py.subprocess-shell', path: 'scripts/**/*.py', fingerprint: 'abc123', reason: 'build scripts run only in CI with fixed input', expires: '2031-01-31' },
      { rule: 'jscr/js-eval-dynamic', fingerprint: 'def456', reason: 'accepted risk', expires: '2030-06-01' },
    ]);
    expect(config.context).toEqual({ max_files: 5, max_total_bytes: 1000, max_expansion_rounds: 0 });
    expect(config.scanners.enabled).toHaveLength(6);
    expect(config.redaction.block_on_secret).toBe(false);
    expect(config.egress.enabled).toBe(true);
    expect(config.net.connect).toEqual(['api.openai.com:443', '[::1]:8080']);
    expect(config.model).toEqual({ provider: 'openai', base_url: 'https://api.openai.com/v1', name: 'gpt-test', api_key_env: 'OPENAI_API_KEY', timeout_s: 5, max_output_tokens: 100, max_input_bytes: 4096 });
    expect(config.verify.enabled).toBe(false);
    expect(config.prover).toEqual({
      enabled: false,
      max_depth: 1,
      fan_out: 2,
      scope: false,
      guards: [{ name: 'Acl::demand', checks: 'ownership', resource: 'project' }],
      public: [{ route: '/login', reason: 'the sign-in page' }],
    });
    expect(config.gate).toEqual({ enabled: false, state_dir: '/var/tmp/gate', exempt_globs: ['docs/**'], full_denials: 0, max_denials: 7, metrics: true, external_contract_question: true });
  });

  it('leaves no default key untested (a new key must be added to the file above)', () => {
    // scanners.builtin can only be true; verify.enabled's default follows the model (false here against a
    // default of true once a model is set), which the defaults block tests.
    const exempt = new Set(['scanners.builtin', 'verify.enabled']);
    const unchanged = leafPaths(defaultConfig()).filter((path) => !exempt.has(path) && JSON.stringify(at(config, path)) === JSON.stringify(at(defaultConfig(), path)));
    expect(unchanged).toEqual([]);
  });
});

describe('errors are one line with the file and the dotted key path', () => {
  const cases: { name: string; text: string; line: RegExp }[] = [
    { name: 'TOML syntax error', text: '[review]\nfail_on = "high"\nmax_findings = = 3\n', line: /^\/repo\/\.jscr\.toml: line 3, column \d+: invalid TOML: / },
    { name: 'impossible date (a syntax error without a position from the parser)', text: '[[suppress]]\nrule = "r"\nreason = "x"\nexpires = 2030-13-01\n', line: /^\/repo\/\.jscr\.toml: line 4: invalid TOML: / },
    { name: 'unknown top-level key', text: 'reviw = 1\n', line: /^\/repo\/\.jscr\.toml: reviw: unknown key; expected one of: repository, review, / },
    { name: 'unknown nested key', text: '[model]\nprovider = "none"\napi_key = "sk-live"\n', line: /^\/repo\/\.jscr\.toml: model\.api_key: unknown key; expected one of: provider, base_url, / },
    { name: 'unknown key in a suppress entry', text: '[[suppress]]\nrule = "r"\nreason = "x"\nuntil = 2030-01-01\n', line: /^\/repo\/\.jscr\.toml: suppress\[0\]\.until: unknown key/ },
    { name: 'wrong type', text: '[repository]\nfollow_symlinks = "yes"\n', line: /^\/repo\/\.jscr\.toml: repository\.follow_symlinks: expected boolean, found string "yes"$/ },
    { name: 'value outside the enum', text: '[review]\nfail_on = "urgent"\n', line: /^\/repo\/\.jscr\.toml: review\.fail_on: expected one of "critical", "high", "medium", "low", found string "urgent"$/ },
    { name: 'suppress without reason', text: '[[suppress]]\nrule = "r"\n\n[[suppress]]\nrule = "s"\n', line: /^\/repo\/\.jscr\.toml: suppress\[0\]\.reason: required: expected string \(and 1 more problem\)$/ },
    { name: 'suppress with an empty reason', text: '[[suppress]]\nrule = "r"\nreason = "  "\n', line: /^\/repo\/\.jscr\.toml: suppress\[0\]\.reason: expected a non-empty reason$/ },
    { name: 'suppress naming no rule', text: '[[suppress]]\nreason = "all of it"\n', line: /^\/repo\/\.jscr\.toml: suppress\[0\]\.rule: required: expected string$/ },
    { name: 'expires as a date-time', text: '[[suppress]]\nrule = "r"\nreason = "x"\nexpires = 2030-01-01T10:00:00Z\n', line: /suppress\[0\]\.expires: expected a date YYYY-MM-DD, not a date-time$/ },
    { name: 'expires as a malformed string', text: '[[suppress]]\nrule = "r"\nreason = "x"\nexpires = "next year"\n', line: /suppress\[0\]\.expires: expected a date YYYY-MM-DD$/ },
    { name: 'builtin scanners turned off', text: '[scanners]\nbuiltin = false\n', line: /scanners\.builtin: expected true, found boolean false$/ },
    { name: 'unknown scanner', text: '[scanners]\nenabled = ["trivy"]\n', line: /scanners\.enabled\[0\]: expected one of "bandit", "shellcheck", "secretlint", "eslint", "semgrep", "gitleaks"/ },
    { name: 'net.connect without a port', text: '[net]\nconnect = ["api.example.com"]\n', line: /net\.connect\[0\]: expected host:port/ },
    { name: 'an API key where the variable name belongs', text: '[model]\napi_key_env = "sk-abc-123"\n', line: /model\.api_key_env: expected the NAME of an environment variable$/ },
    { name: 'a model provider without a model name', text: '[model]\nprovider = "openai"\n', line: /model\.name: expected a model name when model\.provider is "openai"$/ },
    { name: 'fractional integer', text: '[context]\nmax_files = 2.5\n', line: /context\.max_files: expected int/ },
    { name: 'gate exempt_globs of the wrong type', text: '[gate]\nexempt_globs = 3\n', line: /gate\.exempt_globs: / },
    { name: 'negative gate budget', text: '[gate]\nfull_denials = -1\n', line: /gate\.full_denials: / },
    { name: 'table where a value belongs', text: '[egress.enabled]\nx = 1\n', line: /egress\.enabled: expected boolean, found a table$/ },
  ];

  it.each(cases)('$name', ({ text, line }) => {
    const error = configErrorOf(text);
    expect(error.message).not.toContain('\n');
    expect(error.file).toBe(FILE);
    expect(error.message).toMatch(line);
    expect(error.exitCode).toBe(2);
  });

  it('never echoes a value that looks like a secret in an unknown-key message', () => {
    const error = configErrorOf('[model]\napi_key = "sk-live-abcdef"\n');
    expect(error.message).not.toContain('sk-live-abcdef');
  });
});

describe('loadConfig', () => {
  let work: string;
  let repo: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'jscr-config-'));
    repo = join(work, 'repo');
    await mkdir(repo);
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('uses the defaults when the repository has no .jscr.toml', async () => {
    const loaded = await loadConfig({ repoRoot: repo });
    expect(loaded).toEqual({ config: defaultConfig(), source: null });
  });

  it('reads .jscr.toml at the repository root', async () => {
    await writeFile(join(repo, '.jscr.toml'), '[review]\nfail_on = "medium"\n');
    const loaded = await loadConfig({ repoRoot: repo });
    expect(loaded.config.review.fail_on).toBe('medium');
    expect(loaded.source).toMatch(/repo\/\.jscr\.toml$/);
  });

  it('prefers the base revision text over the working-tree file', async () => {
    await writeFile(join(repo, '.jscr.toml'), '[review]\nfail_on = "critical"\n');
    const loaded = await loadConfig({ repoRoot: repo, baseText: { text: '[review]\nfail_on = "low"\n', source: 'HEAD~1:.jscr.toml' } });
    expect(loaded).toMatchObject({ source: 'HEAD~1:.jscr.toml', config: { review: { fail_on: 'low' } } });
  });

  it('lets --config win over the base revision text', async () => {
    const explicit = join(work, 'explicit.toml');
    await writeFile(explicit, '[review]\nfail_on = "high"\n');
    const loaded = await loadConfig({ repoRoot: repo, configPath: explicit, baseText: { text: '', source: 'HEAD~1:.jscr.toml' } });
    expect(loaded).toMatchObject({ source: explicit, config: { review: { fail_on: 'high' } } });
  });

  it('reports an unreadable --config file as a ConfigError naming it', async () => {
    const missing = join(work, 'missing.toml');
    await expect(loadConfig({ repoRoot: repo, configPath: missing })).rejects.toThrow(new ConfigError(missing, null, 'cannot be read (ENOENT)'));
  });

  it('names the base revision in errors from its text', async () => {
    await expect(loadConfig({ repoRoot: repo, baseText: { text: 'bogus = true\n', source: 'abc123:.jscr.toml' } })).rejects.toThrow(/^abc123:\.jscr\.toml: bogus: unknown key/);
  });

  it('refuses a .jscr.toml that is a symbolic link (it could point anywhere)', async () => {
    const other = join(work, 'symlinked-repo');
    await mkdir(other);
    await writeFile(join(work, 'elsewhere.toml'), '[review]\nfail_on = "critical"\n');
    await symlink(join(work, 'elsewhere.toml'), join(other, '.jscr.toml'));
    await expect(loadConfig({ repoRoot: other })).rejects.toThrow(/symbolic link/);
  });
});

describe('[gate] as the gate documents it', () => {
  it('accepts exempt_globs as a comma list too', () => {
    expect(parseConfigText('[gate]\nexempt_globs = "docs/**, *.md"\n', FILE).gate.exempt_globs).toEqual(['docs/**', '*.md']);
  });
});
