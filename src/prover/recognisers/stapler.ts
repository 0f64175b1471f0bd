/**
 * Jenkins/Stapler: public `doXxx` web methods (and `jsXxx`/`@JavaScriptMethod` proxies, and
 * `getDynamic(token, StaplerRequest, StaplerResponse)`, which takes the URL tokens nothing else did) on classes
 * Stapler exposes (Descriptors, actions, management links, StaplerProxy), or carrying Stapler's own
 * cues (StaplerRequest/StaplerResponse parameters, @QueryParameter, @AncestorInPath, @WebMethod...).
 * Only `UnprotectedRootAction` makes an entry `public` (framework reference 1.1).
 */
import type { EntryPoint } from '../types.js';
import { declarationText, lineage, methodsOf } from './shared.js';
import { nothing, type Recogniser } from './types.js';

/** Types whose subclasses Stapler routes to (by simple name; generic arguments dropped). */
const EXPOSED_TYPES = /^(Descriptor|\w+Descriptor|GlobalConfiguration|Action|RootAction|UnprotectedRootAction|ManagementLink|AdministrativeMonitor|StaplerProxy|StaplerFallback|ModelObject|AbstractItem|Job|Run|Computer|View|Cloud|Node|AbstractModelObject|Actionable)$/;
const STAPLER_PARAMETER_TYPES = /^(StaplerRequest2?|StaplerResponse2?)$/;
const STAPLER_PARAMETER_ANNOTATIONS = /^(QueryParameter|AncestorInPath|Header|JsonBody|SubmittedForm|RelativePath)\b/;
const STAPLER_METHOD_ANNOTATIONS = /^(WebMethod|JavaScriptMethod|RequirePOST|POST|GET|PUT|DELETE|StaplerDispatchable|verb\.\w+)\b/;
const RESPONSE_TYPES = /\b(FormValidation|ListBoxModel|ComboBoxModel|HttpResponse|AutoCompletionCandidates|HttpRedirect)\b/;

export const stapler: Recogniser = {
  id: 'stapler',
  languages: ['java'],
  // Jenkins itself and descriptor classes: what Stapler routes to from the root.
  registrationFiles: { paths: [/(^|\/)jenkins\/model\/Jenkins\.java$/], markers: [/\bextends\s+(?:[\w.]+\.)?(?:\w*Descriptor|Jenkins)\b/] },
  recognise(file, { program }) {
    const result = nothing();
    for (const cls of file.ir.classes) {
      const names = lineage(program, cls.name, file.path);
      const exposedBy = [...names].find((n) => EXPOSED_TYPES.test(n)) ?? (cls.name === 'DescriptorImpl' ? 'DescriptorImpl' : null);
      const unprotected = names.has('UnprotectedRootAction');
      for (const ref of methodsOf(program, file, cls.name)) {
        const fn = ref.fn;
        const isDo = /^do[A-Z]\w*$/.test(fn.name);
        const isJs = /^js[A-Z]\w*$/.test(fn.name) || fn.decorators.some((d) => /^JavaScriptMethod\b/.test(d));
        // `getDynamic(String token, StaplerRequest req, StaplerResponse rsp)`: Stapler hands it every
        // URL token no getter or action took, so its body answers requests like a web method.
        const isDynamic = fn.name === 'getDynamic' && fn.parameters.some((p) => p.type !== null && STAPLER_PARAMETER_TYPES.test(p.type));
        if (!isDo && !isJs && !isDynamic) continue;
        // Stapler dispatches static methods too; plugins write static form validation (`public static
        // FormValidation doCheckServerUrl(@QueryParameter String value)`), so those count, others not.
        const formValidation = /^do(Check|Fill|AutoComplete)[A-Z]/.test(fn.name);
        if (!fn.modifiers.includes('public') || (fn.modifiers.includes('static') && !formValidation)) continue;
        const cues: string[] = [];
        const parameterType = fn.parameters.find((p) => p.type !== null && STAPLER_PARAMETER_TYPES.test(p.type));
        if (parameterType?.type) cues.push(`${parameterType.type} parameter`);
        const annotated = fn.parameters.find((p) => p.annotations.some((a) => STAPLER_PARAMETER_ANNOTATIONS.test(a)));
        if (annotated) cues.push(`@${annotated.annotations.find((a) => STAPLER_PARAMETER_ANNOTATIONS.test(a)) ?? ''} parameter`);
        const methodAnnotation = fn.decorators.find((d) => STAPLER_METHOD_ANNOTATIONS.test(d));
        if (methodAnnotation) cues.push(`@${methodAnnotation}`);
        const returns = RESPONSE_TYPES.exec(declarationText(file, fn).split(fn.name)[0] ?? '');
        if (returns) cues.push(`returns ${returns[1] ?? ''}`);
        // Routability (Jenkins 2.154+): a web method must show a Stapler cue; on an exposed class we accept
        // a plain public do-method too, as older cores route it.
        if (cues.length === 0 && !exposedBy) continue;
        const kind = formValidation ? 'form_validation' : 'route';
        const entry: EntryPoint = {
          functionId: ref.id,
          path: file.path,
          function: fn.qualifiedName,
          line: fn.startLine,
          framework: 'stapler',
          kind,
          access: unprotected ? 'public' : 'protected',
          evidence: `public ${isJs ? 'JavaScript proxy' : isDynamic ? 'dynamic-dispatch' : 'web'} method ${fn.name}${exposedBy ? ` on a ${exposedBy}` : ''}${cues.length > 0 ? ` (${cues.join(', ')})` : ''}`,
        };
        result.entries.push(entry);
      }
    }
    return result;
  },
};
