/** The name of jscr's configuration file at a repository's root; its own module so the gate can name it too. */
export const CONFIG_FILE_NAME = '.jscr.toml';
