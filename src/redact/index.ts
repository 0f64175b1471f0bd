/** The secret detector and redaction, shared by the built-in rules and the model step. */
export { detectSecrets, scanSecrets, shannonEntropy, type SecretMatch, type SecretScan } from './detect.js';
export { secretFindings, maskValue, HARDCODED_SECRET_RULE, type SecretScanFile } from './findings.js';
export { redact, RedactionCounter, type RedactionResult, type Replacement } from './redact.js';
export { builtInSecretRules, parseSecretRules, secretRulesPath, type SecretRule, type SecretRuleSet } from './rules.js';
export { catastrophicBacktrackingHazard } from '../data-file/regex-shape.js';
export { SecretBook, maskReport, maskError, maskFinding, maskDisplay, type KnownSecret, type SecretSpan } from './mask.js';
