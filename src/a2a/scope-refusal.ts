// A call outside the credential's scopes, over A2A. Neither A2A version has an error for a refused
// permission, and the SDK answers any error it does not know as -32603 "Internal error", which tells the
// caller nothing it can fix. So a scope refusal is answered with an application-defined JSON-RPC code
// (403: outside the range JSON-RPC and A2A reserve, and what REST answers) and names the scope in `data`:
// A2A 1.0 as an ErrorInfo (reason INSUFFICIENT_SCOPE, metadata {code, scope}), 0.3 as {code, scope}.
import { A2AError } from '@a2a-js/sdk/errors';

export const SCOPE_REFUSAL_CODE = 403;
const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';

export class ScopeRefusal extends A2AError {
  override reason = 'INSUFFICIENT_SCOPE';

  constructor(
    message: string,
    readonly scope: string,
  ) {
    super({ message, metadata: { code: 'INSUFFICIENT_SCOPE', scope } });
  }
}

// The JSON-RPC error object of a refusal, in the caller's version of A2A.
export function scopeRefusalError(refusal: ScopeRefusal, legacy: boolean, domain: string) {
  const fields = { code: 'INSUFFICIENT_SCOPE', scope: refusal.scope };
  return {
    code: SCOPE_REFUSAL_CODE,
    message: refusal.message,
    data: legacy ? fields : [{ '@type': ERROR_INFO_TYPE, reason: 'INSUFFICIENT_SCOPE', domain, metadata: fields }],
  };
}
