/** The model library: providers, prompts, reply schemas, material chunking, anchoring. */
export {
  PROVIDERS,
  openaiProvider,
  anthropicProvider,
  joinEndpoint,
  isAzureStyle,
  contentText,
  WIDEST_REQUEST,
  type Provider,
  type ProviderReply,
  type PromptParts,
  type ReplyKind,
  type TokenUsage,
  type RequestAdjustments,
} from './providers.js';
export { callModel, retryAfterMs, retryWaitMs, MAX_RETRY_WAIT_MS, DEFAULT_RETRY_WAIT_MS, MAX_SHAPE_ADJUSTMENTS, type CallOutcome, type CallTarget } from './client.js';
export { numberSegment, chunkMaterial, type ModelSegment, type MaterialLine, type NumberedSegment, type MaterialChunk } from './numbered-material.js';
export { chooseFence, renderLine, reviewSystemPrompt, reviewUserPrompt, verifySystemPrompt, verifyUserPrompt, fixSystemPrompt, fixUserPrompt, estimateTokens, type VerifyFinding, type FixQuestion } from './prompt.js';
export { anchorFinding, contextAround, foldWhitespace, normaliseCwe, MODEL_FINDING_RULE, type AnchorResult } from './anchor.js';
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
  type ProposalReply,
  type ModelFinding,
  type FindingsReply,
  type VerdictReply,
} from './schemas.js';
