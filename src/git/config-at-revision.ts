import { CONFIG_FILE_NAME } from '../config-file.js';
import { ConfigError } from '../errors.js';
import { entryAtRevision } from './change.js';

/**
 * A revision's .jscr.toml, or null when it has none (then the defaults apply). A symbolic link
 * or a directory in its place, or text that is not UTF-8, is a configuration error, never a silent
 * fall back to the defaults.
 */
export async function configTextAtRevision(root: string, baseRev: string): Promise<{ text: string; source: string } | null> {
  const source = `${CONFIG_FILE_NAME} at ${baseRev.slice(0, 12)}`;
  const entry = await entryAtRevision(root, baseRev, CONFIG_FILE_NAME);
  switch (entry.kind) {
    case 'absent':
      return null;
    case 'symlink':
      throw new ConfigError(source, null, 'is a symbolic link; jscr reads only a regular file (give the file with --config)');
    case 'directory':
    case 'submodule':
      throw new ConfigError(source, null, `is a ${entry.kind}, not a file`);
    case 'file': {
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(entry.bytes);
      } catch {
        throw new ConfigError(source, null, 'is not valid UTF-8 text (TOML must be UTF-8)');
      }
      return { text, source };
    }
  }
}
