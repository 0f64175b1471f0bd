/**
 * The profile's word lists. They live here as plain constants rather than TOML because the gate's
 * bundle must not load a TOML parser (every agent edit pays its start-up); a test pins their shape.
 */

/** Words (after identifier splitting and lowercasing) that mean a change handles data. */
export const DATA_WORDS: readonly string[] = [
  // formats and serialisation
  'json', 'jsonl', 'ndjson', 'csv', 'tsv', 'yaml', 'yml', 'xml', 'toml', 'ini', 'parquet', 'avro', 'orc',
  'protobuf', 'proto', 'thrift', 'serialize', 'serialise', 'serializer', 'serialization', 'serialisation',
  'deserialize', 'deserialise', 'deserializer', 'serde', 'pickle', 'unpickle', 'marshal', 'unmarshal',
  'marshaller', 'codec', 'schema', 'schemas', 'dataframe', 'pandas', 'arrow', 'hdf5', 'feather',
  // SQL and databases
  'sql', 'sqlite', 'sqlite3', 'database', 'databases', 'db', 'postgres', 'postgresql', 'pg', 'mysql',
  'mariadb', 'mssql', 'oracle', 'mongo', 'mongodb', 'mongoose', 'orm', 'migration', 'migrations',
  'cursor', 'jdbc', 'odbc', 'dynamodb', 'dynamo', 'cassandra', 'bigquery', 'snowflake',
  // dates and times
  'date', 'dates', 'datetime', 'timestamp', 'timestamps', 'strftime', 'strptime', 'utc', 'gmt',
  'timezone', 'tz', 'tzinfo', 'chrono', 'zoneinfo', 'pytz', 'moment', 'dayjs', 'luxon', 'iso8601',
  'epoch', 'unixtime', 'calendar', 'instant', 'localdate', 'localdatetime', 'zoned',
  // encodings
  'base64', 'base32', 'hex', 'encoding', 'encode', 'decode', 'encoder', 'decoder', 'msgpack', 'cbor',
  'bson', 'utf8', 'utf16', 'charset', 'endian', 'struct',
  // browser storage and cookies
  'storage', 'cookie', 'cookies', 'indexeddb',
  // data-store clients
  'redis', 'memcached', 'prisma', 'sqlalchemy', 'sequelize', 'typeorm', 'knex', 'drizzle', 'peewee',
  'gorm', 'diesel', 'sqlx', 'hibernate', 'jpa', 'elasticsearch', 'kafka', 's3', 'bucket', 'blob',
  // file I/O
  'fs', 'fopen', 'fread', 'fwrite', 'fprintf', 'fscanf', 'pathlib', 'ioutil', 'bufio', 'filesystem',
  'readfile', 'writefile', 'ofstream', 'ifstream', 'fstream', 'stdin', 'shutil',
];

/** Adjacent word pairs that mean data or time handling even though each word alone is ordinary. */
export const DATA_PAIRS: readonly (readonly [string, string])[] = [
  ['read', 'file'], ['write', 'file'], ['read', 'text'], ['write', 'text'], ['read', 'bytes'],
  ['write', 'bytes'], ['read', 'lines'], ['read', 'to'], ['read', 'all'], ['open', 'file'],
  ['load', 'file'], ['save', 'file'], ['time', 'now'], ['time', 'parse'], ['system', 'time'],
  ['date', 'now'], ['time', 'format'], ['parse', 'time'], ['to', 'iso'], ['local', 'time'],
  ['out', 'file'], ['get', 'content'], ['set', 'content'], ['add', 'content'], ['web', 'request'],
  ['rest', 'method'],
];

/** SQL keyword pairs: both words anywhere in the text mean a query. */
export const SQL_PAIRS: readonly (readonly [string, string])[] = [
  ['select', 'from'], ['insert', 'into'], ['create', 'table'], ['alter', 'table'], ['drop', 'table'],
  ['delete', 'from'], ['update', 'set'], ['create', 'index'], ['merge', 'into'], ['truncate', 'table'],
  ['create', 'view'],
];

/** Shell tools that fetch or transform documents. */
export const SHELL_DATA_TOOLS: readonly string[] = [
  'curl', 'wget', 'jq', 'yq', 'xmllint', 'psql', 'tee', 'iwr', 'irm', 'sqlite3', 'mysql', 'xq',
];

/** PowerShell cmdlets that read or write files or the web (matched case-insensitively as text). */
export const POWERSHELL_DATA_CMDLETS: readonly string[] = [
  'out-file', 'get-content', 'set-content', 'add-content', 'invoke-webrequest', 'invoke-restmethod',
  'export-clixml', 'import-clixml', 'export-csv', 'import-csv', 'convertto-json', 'convertfrom-json',
];

/** Redirection targets that are not files. */
export const NON_FILE_REDIRECT_TARGETS: readonly string[] = ['/dev/null', '/dev/stdout', '/dev/stderr', '$null', 'nul'];

/**
 * Markers that make a comment a directive read by a tool, compiler or editor (substring,
 * case-insensitive). Over-matching prose only keeps an edit gated.
 */
export const DIRECTIVE_WORDS: readonly string[] = [
  'lint', 'ts-', 'noqa', 'nosec', 'pragma', 'coding:', 'coding=', 'fmt:', 'istanbul', 'prettier-', 'webpack',
  '__pure__', 'fallthrough', 'fall through', 'shellcheck', 'suppress', 'sonar', 'gitleaks', 'allowlist',
  'vim:', '-*-', 'do not edit', '#compdef', 'output:', 'jshint', 'jscs', 'c8 ', 'mypy', 'pyright',
  'pyre-', 'biome-ignore', 'deno-', 'clang-format', 'codeql', 'semgrep', 'snyk', 'trufflehog',
  'detect-secrets', 'noinspection', 'resharper', 'coverage', 'rubocop', 'phpcs',
  // scanner, coverage, formatter and compiler markers whose removal or change alters what a tool does
  'v8 ignore', 'isort:', 'yapf:', 'lgtm', 'deepcode', 'coverity', 'nopmd', 'checkstyle', 'skipcq', '$flow',
  'cython:', 'distutils:', 'pytype:', 'vi:', 'checkov', 'tfsec', 'kics', 'cspell', 'spotless', 'cpd-', 'trunk-ignore',
  'bandit', 'sourcery', 'nocov',
  // jscr's own inline suppression: the review reads it, so adding one is not comment-only
  'jscr-ignore',
  // zsh reads the first line of a completion function: `#compdef`, `#autoload` (the `#` is the comment marker)
  'compdef', 'autoload',
];

/** Comment words that are directives when they are the whole first word and a blank follows. */
export const DIRECTIVE_FIRST_WORDS: readonly string[] = ['global', 'globals', 'exported'];

/** Comment first-word prefixes that make a directive (JSDoc tags, pragmas, +build, type comments). */
export const DIRECTIVE_FIRST_PREFIXES: readonly string[] = ['@', '#', '<', '+', '!', 'type:', 'requires'];

/** Comment text prefixes (right after the marker, no blank) that make a directive. */
export const DIRECTIVE_IMMEDIATE_PREFIXES: readonly string[] = ['!', '/', 'go:', 'export ', 'export\t', 'extern ', 'extern\t', 'line ', 'line\t'];
