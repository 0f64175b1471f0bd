/**
 * Livewire components: every public method of a class extending Livewire's `Component` is callable
 * from the browser with arguments the caller chooses (framework reference 7.1). Lifecycle hooks that
 * Livewire refuses to call directly are left out; `updating*`/`updated*` hooks run on property updates
 * and are entries.
 */
import { lineage, methodsOf } from './shared.js';
import { nothing, type Recogniser } from './types.js';

const NOT_CALLABLE = /^(mount|render|boot\w*|booted|hydrate\w*|dehydrate\w*|rendering|rendered|exception|rules|messages|validationAttributes|placeholder|__\w+)$/;

export const livewire: Recogniser = {
  id: 'livewire',
  languages: ['php'],
  recognise(file, { program }) {
    const result = nothing();
    const importsLivewire = file.ir.imports.some((i) => /^\\?Livewire\\/.test(i.module)) || /(^|\/)app\/(Http\/)?Livewire\//.test(file.path);
    if (!importsLivewire) return result;
    for (const cls of file.ir.classes) {
      if (cls.kind !== 'class' || cls.isAbstract) continue;
      if (!lineage(program, cls.name, file.path).has('Component')) continue;
      for (const ref of methodsOf(program, file, cls.name)) {
        const fn = ref.fn;
        if (!fn.modifiers.includes('public') || fn.modifiers.includes('static') || NOT_CALLABLE.test(fn.name)) continue;
        const hook = /^(updating|updated)[A-Z_]?/.test(fn.name);
        result.entries.push({
          functionId: ref.id,
          path: file.path,
          function: fn.qualifiedName,
          line: fn.startLine,
          framework: 'livewire',
          kind: hook ? 'property_hook' : 'component_action',
          access: 'protected',
          evidence: hook ? `property update hook ${fn.name} of Livewire component ${cls.name}` : `public method ${fn.name} of Livewire component ${cls.name}`,
        });
      }
    }
    return result;
  },
};
