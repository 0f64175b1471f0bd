/**
 * The front-end registry: which FlowFrontEnd lowers each language. A new front end is one import and
 * one entry in FRONT_ENDS; a test checks every module in this folder is listed.
 */
import type { FlowFrontEnd } from '../ir.js';
import type { Language } from '../../syntax/languages.js';
import { goFrontEnd } from './go.js';
import { javaFrontEnd } from './java.js';
import { javascriptFrontEnd } from './javascript.js';
import { phpFrontEnd } from './php.js';
import { pythonFrontEnd } from './python.js';

const FRONT_ENDS: readonly FlowFrontEnd[] = [javaFrontEnd, pythonFrontEnd, javascriptFrontEnd, phpFrontEnd, goFrontEnd];

const byLanguage = new Map<Language, FlowFrontEnd>(FRONT_ENDS.flatMap((frontEnd) => frontEnd.languages.map((language) => [language, frontEnd] as const)));

/** The front end for a language, or null when data flow does not cover it yet. */
export function frontEndFor(language: Language): FlowFrontEnd | null {
  return byLanguage.get(language) ?? null;
}

/** Every language some front end lowers. */
export function flowLanguages(): Language[] {
  return [...byLanguage.keys()];
}
