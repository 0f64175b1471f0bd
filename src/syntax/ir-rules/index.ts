/** The IR rules of every parsed language. */
import type { Language } from '../languages.js';
import { goRules } from './go.js';
import { javaRules } from './java.js';
import { javascriptRules } from './javascript.js';
import { phpRules } from './php.js';
import { pythonRules } from './python.js';
import type { LanguageRules } from './rules.js';
import { rubyRules } from './ruby.js';

const RULES: Record<Language, LanguageRules> = {
  python: pythonRules,
  javascript: javascriptRules,
  typescript: javascriptRules,
  tsx: javascriptRules,
  java: javaRules,
  php: phpRules,
  go: goRules,
  ruby: rubyRules,
};

/** The IR rules for a language. */
export function rulesFor(language: Language): LanguageRules {
  return RULES[language];
}
