/** `.jscr.toml`: the schema, its defaults and discovery (SPEC 3). */
export { defaultConfig, parseConfigText, loadConfig, CONFIG_FILE_NAME } from './load.js';
export { type JscrConfig } from './schema.js';
