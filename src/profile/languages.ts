/** Which languages the change profile reads, chosen by file extension (a view of the language registry). */
import { fileTypeOf, type LexerFamily } from '../languages/registry.js';

export { baseNameOf, isCFamily } from '../languages/registry.js';

/** A language family the profile's lexer knows. Anything else yields the unknown profile. */
export type ProfileLanguage = LexerFamily;

/** The profile language of a path, or null when the profile cannot read it (the unknown profile). */
export function profileLanguageFor(path: string): ProfileLanguage | null {
  return fileTypeOf(path)?.lexer ?? null;
}

/** JavaScript-family files where `<` may open JSX (.ts, .mts and .cts only have generics). */
export function allowsJsx(path: string): boolean {
  return fileTypeOf(path)?.jsx === true;
}
