/** `.jscr.toml`: the schema, its defaults and discovery (SPEC 3). */
export { defaultConfig, parseConfigText, loadConfig, CONFIG_FILE_NAME, type LoadConfigOptions, type LoadedConfig } from './load.js';
export { configJsonSchema, FAIL_ON_LEVELS, EXTERNAL_SCANNERS, MODEL_PROVIDERS, type JscrConfig, type Suppression } from './schema.js';
