/**
 * `--verify "CMD"` as an argument vector. Only word splitting, quotes and backslashes are understood;
 * every other shell feature (pipes, redirection, globs, variables, substitution, `;`, `&&`, `~`) is
 * refused, because the command runs without a shell and must not look as if it had one.
 */
import { UsageError } from '../errors.js';

/** Characters that mean something to a shell when they stand outside quotes. */
const SHELL_OPERATORS = new Set(['|', '&', ';', '<', '>', '(', ')', '`', '$', '*', '?', '[', ']', '{', '}', '~', '#', '!']);

/**
 * Split a command line the way a POSIX shell splits words: blanks separate words, single quotes keep
 * everything literally, double quotes keep everything but `\"` and `\\`, a backslash outside quotes
 * escapes the next character. `$` and the backtick are refused inside double quotes too (a shell
 * would expand them there).
 */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let k = 0;
  const refuse = (what: string): never => {
    throw new UsageError(`--verify runs a program directly, without a shell; ${what} is not supported (quote it if it is part of an argument)`);
  };
  while (k < command.length) {
    const c = command.charAt(k);
    if (c === ' ' || c === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      k++;
      continue;
    }
    if (c === '\n' || c === '\r') refuse('a line break');
    inWord = true;
    if (c === "'") {
      const end = command.indexOf("'", k + 1);
      if (end < 0) throw new UsageError('--verify has an unterminated single quote');
      word += command.slice(k + 1, end);
      k = end + 1;
      continue;
    }
    if (c === '"') {
      k++;
      for (;;) {
        if (k >= command.length) throw new UsageError('--verify has an unterminated double quote');
        const d = command.charAt(k);
        if (d === '"') break;
        if (d === '$' || d === '`') refuse(`"${d}" (expansion)`);
        if (d === '\\' && (command.charAt(k + 1) === '"' || command.charAt(k + 1) === '\\')) {
          word += command.charAt(k + 1);
          k += 2;
          continue;
        }
        word += d;
        k++;
      }
      k++;
      continue;
    }
    if (c === '\\') {
      if (k + 1 >= command.length) throw new UsageError('--verify ends with a lone backslash');
      word += command.charAt(k + 1);
      k += 2;
      continue;
    }
    if (SHELL_OPERATORS.has(c)) refuse(`"${c}"`);
    word += c;
    k++;
  }
  if (inWord) words.push(word);
  if (words.length === 0) throw new UsageError('--verify needs a command');
  return words;
}
