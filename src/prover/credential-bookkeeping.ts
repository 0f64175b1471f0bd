/**
 * Authenticating a request may update the credential it verifies (an API key's last-use time, its hash
 * moved to a faster scheme) or consume it (a used magic-link token). Such a write, on a credential
 * table (API keys, access or verification tokens, sessions), reached through a function whose name
 * says it authenticates the request (`verifyAuthHeaderAndReturnScope`, `handleApiKeyAuthentication`,
 * `verifyMagicLinkTokens`), is the authentication's own bookkeeping: nobody is known yet whose
 * permission it could need, and the caller reaches only the credential it presented. A write to any
 * other table there, or to a credential table from any other function, is judged as before.
 */
import type { Program } from './resolution.js';
import type { OperationSite, PathRecord } from './types.js';

/** A Prisma or repository write on a credential table: `prisma.apiKey.update`, `this.prisma.verificationToken.delete`, `prisma.token.update`. */
const CREDENTIAL_WRITE = /\.(tokens?|api_?keys?|api_?tokens?|access_?tokens?|refresh_?tokens?|verification_?tokens?|infra_?tokens?|personal_?access_?tokens?|sessions?)\.(update|updateMany|upsert|delete|deleteMany)\s*\(/i;
/** A function that authenticates the request: its name says it authenticates, or verifies the credential or header it was given. */
// A route wrapper named for the sign-in it requires (`withSession`, `withAuth`, `withApiKey`) authenticates the requests it wraps.
const AUTHENTICATES = /authenticat|^(verify|validate)\w*(Auth|ApiKey|Key|Token|Credential|Session|MagicLink|Header)|^with(Session|Auth|ApiKey|Token)\b/;

/** Input the request chose, beside the credential it presents: a route parameter, a body or query field. */
const REQUEST_CHOSEN = /\b(?:params|input|body|query|args|searchParams)\s*(?:\.|\[)/;

/**
 * True when `op` is a write on the credential an authenticating function on the path verifies. The
 * function must be handed the credential only: given a request-chosen id as well
 * (`validateSessionToken(token, params.id)`), the write may key another caller's record.
 */
export function authenticationBookkeeping(program: Program, path: PathRecord, op: OperationSite): boolean {
  if (!CREDENTIAL_WRITE.test(op.call)) return false;
  return path.hops.some((hop, index) => {
    if (!AUTHENTICATES.test(program.functions.get(hop.functionId)?.fn.name ?? '')) return false;
    const caller = index > 0 ? path.hops[index - 1] : undefined;
    const from = caller ? program.functions.get(caller.functionId) : undefined;
    const callText = from && caller?.callLine ? (program.byPath.get(from.path)?.lines[caller.callLine - 1] ?? '') : '';
    return !REQUEST_CHOSEN.test(callText);
  });
}
