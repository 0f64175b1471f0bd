import packageJson from '../package.json' with { type: 'json' };

/** The package version; esbuild inlines package.json into the bundle. */
export const VERSION: string = packageJson.version;
