/**
 * The one compiler of regexes written as data: a pattern must compile and must not be able to
 * backtrack catastrophically (regex-shape.ts), or the file that holds it is refused.
 */
import { catastrophicBacktrackingHazard } from './regex-shape.js';

export type CompiledPattern = { ok: true; regex: RegExp } | { ok: false; problem: string };

export function compilePattern(source: string, flags = ''): CompiledPattern {
  let regex: RegExp;
  try {
    regex = new RegExp(source, flags);
  } catch (error) {
    return { ok: false, problem: `regex does not compile: ${error instanceof Error ? error.message : String(error)}` };
  }
  const hazard = catastrophicBacktrackingHazard(source);
  if (hazard !== null) return { ok: false, problem: `regex may backtrack catastrophically: ${hazard}` };
  return { ok: true, regex };
}
