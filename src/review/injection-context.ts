/**
 * Where a changed file sits, for the prompt-injection check: guidance and documentation, tests of an
 * injection filter, translation data (ruleset/injection-context.toml). Placement never silences text
 * on its own; it only says where a quoted phrase is an example rather than an instruction.
 */
import picomatch from 'picomatch';
import { z } from 'zod';
import { loadDataFile } from '../data-file/load.js';
import { packageFileText } from '../package-root.js';

const ContextFileSchema = z.strictObject({
  guidance_paths: z.array(z.string().min(1)).min(1),
  example_framing: z.string().min(1),
  example_compliance: z.string().min(1),
  example_negation: z.string().min(1),
  test_paths: z.array(z.string().min(1)).min(1),
  test_topic: z.string().min(1),
  translation_paths: z.array(z.string().min(1)).min(1),
});

/** Where a file sits, as the injection check reads it. */
export type Placement = 'guidance' | 'test' | 'translation' | 'code';

export interface PlacementRules {
  placementOf(path: string): Placement;
  /** Whether words outside a guidance line's quotes present the quoted text as an example. */
  framesExample(outsideQuotes: string): boolean;
  /** Whether a test file's path or text says it is about injection. */
  isAboutInjection(path: string, lines: Iterable<string>): boolean;
}

/** The placement rules from the text of an injection-context file. */
export function parsePlacementRules(text: string, file = 'ruleset/injection-context.toml'): PlacementRules {
  return loadDataFile({
    file,
    text,
    kind: 'rules',
    schema: ContextFileSchema,
    normalise: (data, context) => {
      const glob = (globs: string[]): ((path: string) => boolean) => picomatch(globs, { dot: true, nocase: true });
      const guidance = glob(data.guidance_paths);
      const test = glob(data.test_paths);
      const translation = glob(data.translation_paths);
      const topic = context.pattern(['test_topic'], data.test_topic, 'i');
      const framing = context.pattern(['example_framing'], data.example_framing, 'i');
      const compliance = context.pattern(['example_compliance'], data.example_compliance, 'gi');
      const negation = context.pattern(['example_negation'], data.example_negation, 'i');
      // A compliance word not negated just before it: the quote is what the reader is told to do.
      const asksToComply = (outsideQuotes: string): boolean =>
        [...outsideQuotes.matchAll(compliance)].some((found) => !negation.test(outsideQuotes.slice(Math.max(0, found.index - 40), found.index)));
      return {
        framesExample: (outsideQuotes: string): boolean => framing.test(outsideQuotes) && !asksToComply(outsideQuotes),
        placementOf: (path: string): Placement => (translation(path) ? 'translation' : guidance(path) ? 'guidance' : test(path) ? 'test' : 'code'),
        isAboutInjection: (path: string, lines: Iterable<string>): boolean => {
          if (topic.test(path)) return true;
          for (const line of lines) if (topic.test(line)) return true;
          return false;
        },
      };
    },
  });
}

let cached: PlacementRules | null = null;

/** The built-in placement rules, read once per process. */
export function placementRules(): PlacementRules {
  cached ??= parsePlacementRules(packageFileText('ruleset', 'injection-context.toml'));
  return cached;
}
