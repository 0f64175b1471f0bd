/**
 * The table that weighs a pattern rule's finding by what data flow saw reach the sink on its line
 * (rules/calibration/pattern-by-flow.toml, docs/adr/0022-pattern-findings-weighed-by-flow-evidence.md):
 * per family of sinks flow models, the action for each origin of the value there.
 */
import { z } from 'zod';
import { loadDataFile, UniqueIds } from '../data-file/load.js';
import { packageFileText } from '../package-root.js';

export const CALIBRATION_FILE = 'rules/calibration/pattern-by-flow.toml';

/** What becomes of the pattern finding: none, kept at severity low with what to check, or unchanged. */
export const CALIBRATION_ACTIONS = ['drop', 'low', 'keep'] as const;
export type CalibrationAction = (typeof CALIBRATION_ACTIONS)[number];

const action = z.enum(CALIBRATION_ACTIONS);

const FamilySchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'expected a kebab-case id'),
  cwes: z.array(z.string().regex(/^CWE-\d+$/, 'expected a CWE id such as CWE-78')).min(1),
  own: action.describe('a constant or data the function writes out itself, or a value sanitised or vetted for the sink'),
  symbolic: action.describe('parameters, fields or names set outside the file, with no source of outside data in sight'),
  unseen: action.describe('part of the value comes from a call, an import or a top-level name flow cannot vouch for'),
});

const CalibrationFileSchema = z.strictObject({ family: z.array(FamilySchema).min(1) });

/** The origins the table decides (`outside` is flow's own finding). */
export type WeighedOrigin = 'own' | 'symbolic' | 'unseen';

export interface CalibrationFamily {
  id: string;
  cwes: ReadonlySet<string>;
  actions: Readonly<Record<WeighedOrigin, CalibrationAction>>;
}

/** Families by CWE: each CWE belongs to one family at most. */
export type CalibrationTable = ReadonlyMap<string, CalibrationFamily>;

export function parseCalibration(text: string, file = CALIBRATION_FILE): CalibrationTable {
  return loadDataFile({
    file,
    text,
    kind: 'rules',
    schema: CalibrationFileSchema,
    normalise: (data, context) => {
      const ids = new UniqueIds('family id');
      const cwes = new UniqueIds('CWE');
      const out = new Map<string, CalibrationFamily>();
      data.family.forEach((row, index) => {
        ids.claim(row.id, context, ['family', index, 'id']);
        const family: CalibrationFamily = { id: row.id, cwes: new Set(row.cwes), actions: { own: row.own, symbolic: row.symbolic, unseen: row.unseen } };
        row.cwes.forEach((cwe, at) => {
          cwes.claim(cwe, context, ['family', index, 'cwes', at]);
          out.set(cwe, family);
        });
      });
      return out;
    },
  });
}

let cached: CalibrationTable | null = null;

/** The built-in table, read once per process. */
export function builtinCalibration(): CalibrationTable {
  cached ??= parseCalibration(packageFileText('rules', 'calibration', 'pattern-by-flow.toml'));
  return cached;
}
