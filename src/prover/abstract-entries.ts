/**
 * A public method of an abstract controller is reached only through the concrete classes that extend
 * it. When every concrete subclass in the repository overrides it (wallabag's import controllers, each
 * routed and `#[IsGranted]`, calling `parent::indexAction()`), the method is no entry of its own: the
 * overrides are, and the base method is a hop on their paths, under their checks.
 */
import { superChain, type ClassRecord, type Program } from './resolution.js';

/** True when `base` has concrete subclasses in the repository and each declares `method` below `base`. */
export function overriddenByEveryConcreteSubclass(program: Program, base: ClassRecord, method: string): boolean {
  let concrete = 0;
  for (const records of program.table.values()) {
    for (const record of records) {
      if (record === base || record.abstract) continue;
      const chain = superChain(program.table, record);
      const at = chain.indexOf(base);
      if (at <= 0) continue;
      concrete++;
      if (!chain.slice(0, at).some((r) => r.methods.some((m) => m.fn.name === method))) return false;
    }
  }
  return concrete > 0;
}
