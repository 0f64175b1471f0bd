/** jscr's configuration file at a repository's root: its name and its size cap, in their own module so the gate shares them. */
export const CONFIG_FILE_NAME = '.jscr.toml';

/** The largest one jscr or the gate reads: a real one is a few KiB; anything absurd is refused unparsed. */
export const MAX_CONFIG_BYTES = 1024 * 1024;
