/** Directive comments: comments a compiler, build or tool reads, so their text is code (seed: "Directive comments"). */
import type { ProfileLanguage } from './languages.js';
import { DIRECTIVE_FIRST_PREFIXES, DIRECTIVE_FIRST_WORDS, DIRECTIVE_IMMEDIATE_PREFIXES, DIRECTIVE_WORDS } from './word-lists.js';

/**
 * Is a comment a directive? `marker` is how it opened (`//`, `/*`, `#`, `<#`, `rem`); `body` is the
 * text after the marker (for block comments, before the closing marker).
 */
export function isDirectiveComment(marker: string, body: string, language: ProfileLanguage): boolean {
  // Rust doc comments are compiled and run as doc tests.
  if (language === 'rust' && (body.startsWith('/') || body.startsWith('!') || (marker === '/*' && body.startsWith('*') && body !== '*'))) {
    return true;
  }
  const lowerBody = body.toLowerCase();
  for (const prefix of DIRECTIVE_IMMEDIATE_PREFIXES) if (lowerBody.startsWith(prefix)) return true;

  let i = 0;
  while (i < body.length && (body[i] === ' ' || body[i] === '\t' || body[i] === '*' || body[i] === '/')) i++;
  let end = i;
  while (end < body.length && body[end] !== ' ' && body[end] !== '\t' && body[end] !== '\n' && body[end] !== '\r') end++;
  const firstWord = lowerBody.slice(i, end);
  for (const prefix of DIRECTIVE_FIRST_PREFIXES) if (firstWord.startsWith(prefix)) return true;
  if (DIRECTIVE_FIRST_WORDS.includes(firstWord) && end < body.length && (body[end] === ' ' || body[end] === '\t')) return true;

  for (const word of DIRECTIVE_WORDS) if (lowerBody.includes(word)) return true;
  return lowerBody.includes('@') && lowerBody.includes('{');
}
