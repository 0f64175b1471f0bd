/** The secret detector and redaction, shared by the built-in rules and the model step. */
export { detectSecrets, scanSecrets, shannonEntropy } from './detect.js';
export { secretFindings } from './findings.js';
export { learnJoinedSecrets } from './joined-literals.js';
export { redact, RedactionCounter, type Replacement } from './redact.js';
export { builtInSecretRules, parseSecretRules, secretRulesPath } from './rules.js';
export { catastrophicBacktrackingHazard } from '../data-file/regex-shape.js';
export { SecretBook, maskReport, maskError, maskFinding } from './mask.js';
