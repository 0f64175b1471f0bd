/** touchesData: does a side of the change read or write data? (seed: "Data handling") */
import type { ProfileLanguage } from './languages.js';
import {
  DATA_PAIRS,
  DATA_WORDS,
  NON_FILE_REDIRECT_TARGETS,
  POWERSHELL_DATA_CMDLETS,
  SHELL_DATA_TOOLS,
  SQL_PAIRS,
} from './word-lists.js';

const dataWords = new Set(DATA_WORDS);
const shellTools = new Set(SHELL_DATA_TOOLS);
const dataPairs = new Set(DATA_PAIRS.map(([a, b]) => `${a} ${b}`));

function isLower(code: number): boolean {
  return code >= 97 && code <= 122;
}
function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}
function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Split text into lowercase words: runs of ASCII letters and digits, cut at every other character
 * (so `_` separates) and at camelCase boundaries (`readFile` → read file, `JSONParse` → json parse).
 * One linear pass. Marks which words were directly followed by `(`.
 */
function splitWords(text: string): { words: string[]; calledWords: Set<number> } {
  const words: string[] = [];
  const calledWords = new Set<number>();
  let start = -1;
  const flush = (end: number): void => {
    if (start >= 0 && end > start) words.push(text.slice(start, end).toLowerCase());
    start = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const alnum = isLower(code) || isUpper(code) || isDigit(code);
    if (!alnum) {
      const hadWord = start >= 0;
      flush(i);
      if (hadWord && code === 40 /* ( */) calledWords.add(words.length - 1);
      continue;
    }
    if (start < 0) {
      start = i;
      continue;
    }
    const prev = text.charCodeAt(i - 1);
    const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    // lower→Upper starts a word; in a run of capitals, the last one before a lowercase letter does.
    if ((isUpper(code) && (isLower(prev) || isDigit(prev))) || (isUpper(code) && isUpper(prev) && isLower(next))) {
      flush(i);
      start = i;
    }
  }
  flush(text.length);
  return { words, calledWords };
}

/** Does one text mention data by its words, pairs, SQL pairs or `open(`? */
function textTouchesData(text: string): boolean {
  const { words, calledWords } = splitWords(text);
  const seen = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (dataWords.has(word)) return true;
    if (word === 'open' && calledWords.has(i)) return true;
    if (i > 0 && dataPairs.has(`${words[i - 1] as string} ${word}`)) return true;
    seen.add(word);
  }
  for (const [a, b] of SQL_PAIRS) if (seen.has(a) && seen.has(b)) return true;
  return false;
}

/** True for the shell's file redirections (not descriptor duplication, heredocs or /dev/null). */
function hasFileRedirection(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch !== '>' && ch !== '<') continue;
    let j = i + 1;
    if (ch === '<') {
      const next = text[j];
      if (next === '<' || next === '(' || next === '&') {
        // heredoc, here-string, process substitution or descriptor duplication: skip the whole operator
        while (text[j] === '<') j++;
        i = j - 1;
        continue;
      }
    } else {
      if (text[j] === '(') continue; // process substitution >(...)
      if (text[j] === '>' || text[j] === '|') j++;
      if (text[j] === '&') {
        i = j;
        continue; // >&2, 2>&1
      }
    }
    while (text[j] === ' ' || text[j] === '\t') j++;
    const targetStart = j;
    while (j < text.length) {
      const c = text[j];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === ';' || c === '|' || c === '&' || c === ')') break;
      j++;
    }
    const target = text.slice(targetStart, j).toLowerCase();
    const unquoted = target.length >= 2 && (target[0] === '"' || target[0] === "'") ? target.slice(1, -1) : target;
    if (unquoted.length > 0 && !NON_FILE_REDIRECT_TARGETS.includes(unquoted)) return true;
    i = j - 1;
  }
  return false;
}

function shellTouchesData(text: string, language: ProfileLanguage): boolean {
  if (hasFileRedirection(text)) return true;
  const { words } = splitWords(text);
  for (const word of words) if (shellTools.has(word)) return true;
  if (language === 'powershell') {
    const lower = text.toLowerCase();
    for (const cmdlet of POWERSHELL_DATA_CMDLETS) if (lower.includes(cmdlet)) return true;
  }
  return false;
}

/** touchesData over every side of the change. Over-matching only keeps the data question. */
export function touchesData(sides: readonly string[], language: ProfileLanguage): boolean {
  const shellLike = language === 'shell' || language === 'powershell' || language === 'batch';
  for (const side of sides) {
    if (textTouchesData(side)) return true;
    if (shellLike && shellTouchesData(side, language)) return true;
  }
  return false;
}
