/**
 * The import layering of src/ as data (docs/adr/0017-layering.md). dependency-cruiser checks it; the
 * test tests/foundation/layering.test.ts runs it over src/ and fails on any violation. The egress audit
 * (tools/egress-audit.ts) stays a separate test: it also sees network globals, computed import() and
 * require strings, which a dependency graph does not.
 */

/** What the gate bundle (dist/gate.cjs) may hold besides node built-ins: every agent edit pays its start-up. */
// src/languages/ (the registry), src/lexing/ (the lexer cores) and src/config-file.ts are plain code with no imports of weight.
const GATE_MAY_REACH = '^src/(gate/|profile/|languages/|lexing/|config-file\\.ts$|errors\\.ts$|io\\.ts$)';
/** An installed package, wherever node_modules is (a worktree may link it from elsewhere). */
const PACKAGE = '(^|/)node_modules/';
/** Node's network modules, with or without the `node:` prefix. */
const NETWORK_MODULES = '^(node:)?(net|http|https|http2|tls|dgram|dns|inspector)(/promises)?$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'cli-only-from-entry',
      comment: 'src/cli.ts is the commander wiring; only the process entry src/bin.ts runs it (tests call main directly).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/bin\\.ts$' },
      to: { path: '^src/cli\\.ts$' },
    },
    {
      name: 'libraries-not-commands',
      comment: 'Libraries are called by the CLI glue in src/commands/, never the other way round.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli\\.ts$|commands/)' },
      to: { path: '^src/commands/' },
    },
    {
      name: 'review-engine-importers',
      comment: 'The review engine sits above the libraries: only the CLI, the commands and jscr fix (which reviews first) use it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli\\.ts$|commands/|fix/|review/)' },
      to: { path: '^src/review/' },
    },
    {
      name: 'gate-stays-light',
      comment: 'The gate bundle imports only the gate, the profile, the language registry, the lexer cores, the config file name, errors and io at run time (no zod, TOML or tree-sitter).',
      severity: 'error',
      from: { path: '^src/gate/' },
      to: { pathNot: GATE_MAY_REACH, dependencyTypesNot: ['core', 'type-only'] },
    },
    {
      name: 'gate-bundle-closure',
      comment: 'Nothing outside the allowed set is reachable from the gate bundle entry, directly or through the profile.',
      severity: 'error',
      from: { path: '^src/gate/main\\.ts$' },
      to: { path: ['^src/', PACKAGE], pathNot: GATE_MAY_REACH, reachable: true },
    },
    {
      name: 'lexer-cores-stand-alone',
      comment: 'The lexer cores are read by the gate, the profile and the guard alike: they import only each other and node built-ins.',
      severity: 'error',
      from: { path: '^src/lexing/' },
      to: { pathNot: '^src/lexing/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'flow-between-rules-and-syntax',
      comment: 'The data-flow library (src/flow/) sits below the rules, the prover and the review, above the syntax layer: it may use syntax, languages, data-file and errors only.',
      severity: 'error',
      from: { path: '^src/flow/' },
      to: { path: '^src/', pathNot: '^src/(flow/|syntax/|languages/|data-file/|errors\\.ts$)' },
    },
    {
      name: 'no-cycles-between-folders',
      comment: 'The top-level parts of src/ form a hierarchy; a cycle between them means two parts are really one.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-orphans',
      comment: 'A module nothing imports and that imports nothing is dead code.',
      severity: 'error',
      from: { orphan: true, path: '^src/' },
      to: {},
    },
    {
      name: 'reachable-from-an-entry',
      comment: 'Every module of src/ is part of a program: the CLI (src/bin.ts) or the gate bundle (src/gate/main.ts).',
      severity: 'error',
      from: { path: '^src/(bin|gate/main)\\.ts$' },
      to: { path: '^src/', pathNot: '^src/(bin|gate/main)\\.ts$', reachable: false },
    },
    {
      name: 'network-only-in-egress',
      comment: 'Only src/egress/http.ts reaches the network (SPEC 1); tools/egress-audit.ts checks the same and more.',
      severity: 'error',
      from: { pathNot: '^src/egress/http\\.ts$' },
      to: { path: [NETWORK_MODULES, `${PACKAGE}undici/`], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'processes-only-in-policy',
      comment: 'Processes start only through the allowlist in src/policy/ (SPEC 1).',
      severity: 'error',
      from: { pathNot: '^src/policy/' },
      to: { path: ['^(node:)?child_process$', `${PACKAGE}simple-git/`], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import that resolves to nothing is a missing file or package.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
    skipAnalysisNotInRules: true,
  },
};
