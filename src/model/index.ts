/** The model library: providers, prompts, reply schemas, material chunking, anchoring. */
export {
  openaiProvider,
  anthropicProvider,
  joinEndpoint,
  contentText,
  type Provider,
  type PromptParts,
  type TokenUsage,
} from './providers.js';
export { callModel, retryAfterMs, retryWaitMs, MAX_RETRY_WAIT_MS, type CallTarget } from './client.js';
export { numberSegment, chunkMaterial, type ModelSegment, type NumberedSegment } from './numbered-material.js';
export { chooseFence, reviewSystemPrompt, reviewUserPrompt, verifySystemPrompt, verifyUserPrompt, fixSystemPrompt, fixUserPrompt, factsSystemPrompt, factsUserPrompt, estimateTokens, type FixQuestion, type FactsCandidate } from './prompt.js';
export { anchorFinding, contextAround, normaliseCwe } from './anchor.js';
export {
  findingsReplySchema,
  verdictReplySchema,
  modelFindingSchema,
  FINDINGS_JSON_SCHEMA,
  VERDICT_JSON_SCHEMA,
  FINDINGS_SCHEMA_NAME,
  FINDINGS_TOOL_NAME,
  VERDICT_SCHEMA_NAME,
  VERDICT_TOOL_NAME,
  proposalReplySchema,
  PROPOSAL_JSON_SCHEMA,
  PROPOSAL_SCHEMA_NAME,
  PROPOSAL_TOOL_NAME,
  factsReplySchema,
  FACTS_JSON_SCHEMA,
  FACTS_SCHEMA_NAME,
  FACTS_TOOL_NAME,
  type ModelFinding,
} from './schemas.js';
