/**
 * Step 4: the context bundle around the change (enclosing functions, imports, tests, schemas, and the
 * importers of a file whose public surface changed), within the configured limits.
 */
import { buildContext, type ChangedSource, type ContextBundle } from '../context-bundle.js';
import { findImporters, type Profiles } from './profile.js';
import { ran, result, type ReviewStep } from './step.js';
import type { ReadFiles } from './read-files.js';
import type { Syntax } from './syntax.js';

/** Public-surface changes whose importers are searched (each search is one git grep). */
const MAX_IMPORTER_SEARCHES = 20;

function emptyBundle(): ContextBundle {
  return { files: [], totalBytes: 0, limitsReached: [], leftOut: [] };
}

export const contextStep: ReviewStep<'context', { read_files: ReadFiles; syntax: Syntax; profile: Profiles }, ContextBundle> = {
  name: 'context',
  run: async ({ read_files, syntax, profile }, { change, deadline }) => {
    const changed: ChangedSource[] = read_files.readable.map((f) => ({
      path: f.diff.path,
      text: f.text,
      changedLines: f.changedLines,
      ir: syntax.irs.get(f.diff.path) ?? null,
      trivial: profile.trivialPaths.has(f.diff.path),
    }));
    const publicSurfaceChanged = new Map<string, string[]>();
    const surface = profile.files.filter((x) => x.profile.known && x.profile.touchesPublicSurface).slice(0, MAX_IMPORTER_SEARCHES);
    const repositoryFiles = surface.length > 0 ? new Set(await change.reader.listFiles()) : new Set<string>();
    for (const p of surface) {
      if (deadline.expired()) break; // later steps are then not run, and the review says so
      const importers = await findImporters(p.path, change.reader, repositoryFiles);
      if (importers.length > 0) publicSurfaceChanged.set(p.path, importers);
    }
    const limits = change.config.context;
    const bundle = await buildContext({
      changed,
      reader: change.reader,
      publicSurfaceChanged,
      limits: { maxFiles: limits.max_files, maxTotalBytes: limits.max_total_bytes, maxExpansionRounds: limits.max_expansion_rounds },
    });
    const expanded = bundle.files.filter((f) => f.reason !== 'changed').length;
    const stopped = bundle.limitsReached.length ? `; stopped at ${bundle.limitsReached.join(', ')}` : '';
    return result(ran(`${bundle.files.length} file(s), ${bundle.totalBytes} bytes (${expanded} by expansion)${stopped}`), bundle);
  },
  notRun: emptyBundle,
};
