/**
 * The configuration reference: every key of `.jscr.toml` with its type, default and meaning. Keys,
 * types and defaults are read from the zod schema (through its JSON Schema and its parsed defaults);
 * only the sentences live here, and `configReference()` fails when a key has none or a sentence names
 * a key the schema does not have, so the starter file of `jscr init` and docs/configuration.md cannot
 * drift from what the loader accepts.
 */
import { InternalError } from '../errors.js';
import { isDangerousCodePoint } from '../report/escape.js';
import { configFileSchema, configJsonSchema } from './schema.js';

/** What a person needs to know about one key, beyond what the schema says. */
interface KeyDoc {
  /** One or two sentences: what the key changes. */
  text: string;
  /** A value to show (commented out) when the default cannot be written in TOML (no value, or null). */
  example?: string;
}

/** By dotted key; `suppress.*` are the keys of one `[[suppress]]` entry. */
const KEY_DOCS: Record<string, KeyDoc> = {
  'repository.follow_symlinks': { text: 'Follow symbolic links inside the repository; their targets must still be inside it.' },
  'review.fail_on': { text: 'Lowest severity that makes `jscr review` exit 1 (`--fail-on` wins).' },
  'review.min_confidence': { text: 'Findings less confident than this (0 to 1) are left out of the report.' },
  'review.max_findings': { text: 'At most this many findings are reported; the rest are counted under limits reached.' },
  'review.scope': { text: 'Report findings on changed lines only, or anywhere in a changed file.' },
  'review.deadline_s': { text: 'Wall-clock budget of one review in seconds; steps not started by then make the review incomplete.' },
  'review.exclude': {
    text: 'Globs of vendored or generated paths. Matching files are listed as excluded and never reviewed.',
    example: '["vendor/**", "**/*.min.js"]',
  },
  'review.max_file_bytes': { text: 'A changed code file larger than this is not reviewed, which makes the review incomplete.' },
  'suppress.rule': { text: 'The rule id the suppression applies to.', example: '"jscr/sql-string-concat"' },
  'suppress.path': { text: 'A glob of repository-relative paths the suppression is limited to.', example: '"tests/**"' },
  'suppress.fingerprint': { text: "One finding's fingerprint, from the JSON or SARIF report: version 2 covers that occurrence only; a version 1 value from an older report covers the first copy of its line.", example: '"3f2a…"' },
  'suppress.reason': { text: 'Why the finding is accepted; required, so every suppression explains itself.', example: '"test fixtures build SQL on purpose"' },
  'suppress.expires': { text: 'A date (YYYY-MM-DD) after which the suppression no longer applies.', example: '2027-01-31' },
  'context.max_files': { text: 'Most files sent as context around the change (changed files count).' },
  'context.max_total_bytes': { text: 'Most bytes of context, over all files.' },
  'context.max_expansion_rounds': { text: 'How many times the context grows to imports, tests and schemas of what it already holds.' },
  'scanners.builtin': { text: 'The built-in rules always run; the key exists only so that `true` is accepted.' },
  'scanners.enabled': { text: 'External scanners to run as well; an enabled scanner that is not installed makes the review incomplete.', example: '["shellcheck"]' },
  'redaction.block_on_secret': { text: 'Send nothing to a model when a secret is found in what would be sent.' },
  'egress.enabled': { text: 'Nothing leaves the machine unless this is true and the destination is listed in `net.connect`.' },
  'net.connect': { text: 'The exact `host:port` destinations jscr may connect to (IPv6 in brackets).', example: '["api.openai.com:443"]' },
  'model.provider': { text: 'Which model API to ask for a second opinion; `none` keeps the review deterministic.' },
  'model.base_url': { text: 'The API base URL of the provider.', example: '"https://api.openai.com/v1"' },
  'model.name': { text: 'The model to ask; required when a provider is set.', example: '"gpt-4.1"' },
  'model.api_key_env': { text: 'The NAME of the environment variable holding the API key; a key never goes in this file.', example: '"OPENAI_API_KEY"' },
  'model.timeout_s': { text: 'Seconds to wait for one model reply.' },
  'model.max_output_tokens': { text: 'Largest reply asked of the model, in tokens.' },
  'model.max_input_bytes': { text: 'Largest prompt sent, in bytes; context is cut to fit.' },
  'verify.enabled': { text: 'Ask the model to check its own findings against the code; on by default when a model is configured.', example: 'true' },
  'prover.enabled': { text: 'Run the access-control prover on the change.' },
  'prover.max_depth': { text: 'How many calls deep a path from an entry point to an operation may be.' },
  'prover.fan_out': { text: 'Most callees followed from one function.' },
  'prover.guards.name': {
    text: "One of the project's own check helpers: a function, or a method as `Class.method` or `Class::method`. A call to it counts as a check of its kind where it is called (before the operation, on the path). Read from the base revision: a change cannot declare its own guard.",
    example: '"requireEditor"',
  },
  'prover.guards.checks': { text: 'What a call to the helper proves: `authentication` (someone is logged in), `permission` (a role or ability), `ownership` (the object belongs to the caller).', example: '"permission"' },
  'prover.guards.resource': { text: 'The parameter (index from 0, or its name) that names the object checked; kept for resource binding, not yet used to tell objects apart.', example: '1' },
  'prover.guards.source': { text: 'Provenance, written by `jscr facts init`: the file that defines the helper (the row is still matched by name).', example: '"app/utils/session.server.ts"' },
  'prover.guards.region': { text: 'Provenance: the lines of the definition the row was verified against, `first-last`.', example: '"12-30"' },
  'prover.guards.version': { text: 'Provenance: the commit the row was verified at.', example: '"4f1c2e9a0b7d"' },
  'prover.public.route': { text: 'An entry public on purpose, by the URL path its framework declares (`/login`); a trailing `*` takes every route under it.', example: '"/login"' },
  'prover.public.handler': { text: 'An entry public on purpose, by handler: `Class.method`, `Class::method`, or `path/to/file.ts:action` for a module\'s exported handler. With `route`, both must match.', example: '"app/routes/signup.tsx:action"' },
  'prover.public.reason': { text: 'Why the entry is public; required. `jscr prove` lists every entry it skipped with this reason. Read from the base revision: a change cannot exempt its own entry.', example: '"sign-up is open to everyone"' },
  'prover.scope': { text: 'In review, prove only the files the change needs (the changed files, their callers and callees, route files), found by text search, once the candidate code is 1 MiB or more (smaller repositories are read whole; `jscr prove --base` does the same); false reads every file.' },
  'gate.enabled': { text: 'Turn the coding-agent edit gate off with `false` (the JSCR_GATE environment variable wins).' },
  'gate.state_dir': {
    text: 'Where per-session gate state lives; by default under $XDG_STATE_HOME/jscr/gate (or ~/.local/state/jscr/gate).',
    example: '"/var/tmp/jscr-gate"',
  },
  'gate.exempt_globs': { text: 'Project-relative globs of paths the gate never stops (a list, or one comma-separated string).', example: '["docs/**"]' },
  'gate.full_denials': { text: 'Denials shown in full before the gate switches to its one-line form.' },
  'gate.max_denials': { text: 'Cap of denials per session; no cap by default.', example: '20' },
  'gate.metrics': { text: 'Record gate decisions in a local metrics file.' },
  'gate.external_contract_question': { text: 'Also ask about external contracts (APIs, file formats) an edit may touch.' },
};

/** One key as the reference shows it. */
export interface ConfigKey {
  /** `review.fail_on`; `suppress.rule` for a key of a `[[suppress]]` entry. */
  path: string;
  /** The key's own name (`fail_on`). */
  name: string;
  /** The accepted values in words: `one of "critical", "high"`, `integer, at least 0`. */
  type: string;
  /** The default as a TOML value, or null when there is none (the key is optional or computed). */
  defaultToml: string | null;
  /** Required in its table (only keys of `[[suppress]]` entries are). */
  required: boolean;
  description: string;
  /** A TOML value to show when there is no default to show. */
  example: string | null;
}

/** One table of the file. */
export interface ConfigSection {
  /** `review`; for an array of tables (`[[suppress]]`) `repeated` is true. */
  name: string;
  repeated: boolean;
  keys: ConfigKey[];
}

interface JsonSchemaNode {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchemaNode[];
  items?: JsonSchemaNode;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  pattern?: string;
  format?: string;
}

/** A TOML basic string: quotes, backslashes, controls and invisible or bidi characters escaped. */
export function tomlString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (code < 0x20 || isDangerousCodePoint(code)) out += code > 0xffff ? `\\U${code.toString(16).padStart(8, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** A default value as TOML; null for values TOML cannot write (null). */
function tomlValue(value: unknown): string | null {
  if (typeof value === 'string') return tomlString(value);
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return String(value);
  if (Array.isArray(value)) {
    const items = value.map(tomlValue);
    return items.some((i) => i === null) ? null : `[${items.join(', ')}]`;
  }
  return null;
}

const SAFE_INTEGER_MAX = Number.MAX_SAFE_INTEGER;

/** The accepted values of a JSON Schema node, in words. */
function typeInWords(node: JsonSchemaNode): string {
  if (node.anyOf !== undefined) {
    const parts = [...new Set(node.anyOf.filter((n) => n.type !== 'null').map(typeInWords))];
    const nullable = node.anyOf.some((n) => n.type === 'null');
    return `${parts.join(' or ')}${nullable ? ', or unset' : ''}`;
  }
  if (node.const !== undefined) return JSON.stringify(node.const);
  if (node.enum !== undefined) return `one of ${node.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  const bounds: string[] = [];
  if (node.minimum !== undefined) bounds.push(`at least ${node.minimum}`);
  if (node.exclusiveMinimum !== undefined) bounds.push(`more than ${node.exclusiveMinimum}`);
  if (node.maximum !== undefined && node.maximum < SAFE_INTEGER_MAX) bounds.push(`at most ${node.maximum}`);
  const bounded = (word: string): string => (bounds.length > 0 ? `${word}, ${bounds.join(', ')}` : word);
  switch (node.type) {
    case 'boolean':
      return 'true or false';
    case 'integer':
      return bounded('whole number');
    case 'number':
      return bounded('number');
    case 'string':
      if (node.format === 'date') return 'date';
      if (node.pattern === undefined) return node.minLength !== undefined && node.minLength > 0 ? 'non-empty string' : 'string';
      return 'string of a fixed form';
    case 'array':
      return `list of ${node.items === undefined ? 'values' : typeInWords(node.items).replace(/^one of /, 'values from ').replace(/\bstring\b/g, 'strings')}`;
    default:
      return node.type ?? 'value';
  }
}

function docFor(path: string): KeyDoc {
  const doc = KEY_DOCS[path];
  if (doc === undefined) throw new InternalError(`configuration key ${path} has no description in src/config/reference.ts`);
  return doc;
}

function keyOf(path: string, name: string, node: JsonSchemaNode, defaultValue: unknown, required: boolean): ConfigKey {
  const doc = docFor(path);
  return {
    path,
    name,
    type: typeInWords(node),
    defaultToml: defaultValue === undefined ? null : tomlValue(defaultValue),
    required,
    description: doc.text,
    example: doc.example ?? null,
  };
}

let cached: ConfigSection[] | null = null;

/** Every table and key of `.jscr.toml`, in schema order. */
export function configReference(): ConfigSection[] {
  if (cached !== null) return cached;
  const schema = configJsonSchema() as JsonSchemaNode;
  const defaults = configFileSchema.parse({}) as Record<string, unknown>;
  const sections: ConfigSection[] = [];
  for (const [name, node] of Object.entries(schema.properties ?? {})) {
    const entry = node.type === 'array' ? node.items : node;
    const repeated = node.type === 'array';
    const sectionDefaults = repeated ? {} : ((defaults[name] ?? {}) as Record<string, unknown>);
    const required = new Set(entry?.required ?? []);
    const nested: ConfigSection[] = [];
    const keys: ConfigKey[] = [];
    for (const [key, keyNode] of Object.entries(entry?.properties ?? {})) {
      // A list of tables inside a table (`[[prover.guards]]`) is a section of its own, shown after its parent.
      if (!repeated && keyNode.type === 'array' && keyNode.items?.properties !== undefined) {
        const inner = new Set(keyNode.items.required ?? []);
        const innerKeys = Object.entries(keyNode.items.properties).map(([k, n]) => keyOf(`${name}.${key}.${k}`, k, n, undefined, inner.has(k)));
        nested.push({ name: `${name}.${key}`, repeated: true, keys: innerKeys });
        continue;
      }
      keys.push(keyOf(`${name}.${key}`, key, keyNode, sectionDefaults[key], repeated && required.has(key)));
    }
    sections.push({ name, repeated, keys }, ...nested);
  }
  const known = new Set(sections.flatMap((s) => s.keys.map((k) => k.path)));
  const stale = Object.keys(KEY_DOCS).filter((path) => !known.has(path));
  if (stale.length > 0) throw new InternalError(`src/config/reference.ts describes keys the schema does not have: ${stale.join(', ')}`);
  cached = sections;
  return sections;
}
