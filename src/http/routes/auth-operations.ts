// The OpenAPI operations of signing in and of the account's sessions and passkeys (http/routes/auth.ts).
// Their errors are the API's envelope; a WebAuthn credential is the browser's JSON of it.
import type { OpenApiOperation } from '../route.js';

type Schema = Record<string, unknown>;

const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({ type: 'object', properties, ...(required.length ? { required } : {}) });
const text: Schema = { type: 'string' };
const anyObject: Schema = { type: 'object' };
const data = (schema: Schema): Schema => object({ data: schema }, ['data']);
const credential: Schema = { type: 'object', description: 'The WebAuthn credential as the browser gives it (PublicKeyCredential.toJSON())' };
const user: Schema = object({ id: text, email: { type: ['string', 'null'] }, name: { type: ['string', 'null'] } }, ['id']);
const signedIn = (extra: Record<string, Schema> = {}): Schema => data(object({ user, ...extra }, ['user']));
const ERRORS = ['400', '401', '403', '404', '409', '413', '415', '429'];
const cookieHeader = { 'Set-Cookie': { schema: text, description: 'The session cookie (HttpOnly, SameSite=Lax)' } };

function operation(o: {
  id: string;
  summary: string;
  tag: 'auth' | 'account';
  body?: Schema;
  status?: number;
  answer?: Schema;
  setsCookie?: boolean;
  idParam?: boolean;
}): OpenApiOperation {
  const status = String(o.status ?? 200);
  return {
    operationId: o.id,
    summary: o.summary,
    tags: [o.tag],
    // Signing in needs no credential; the account's routes take the session (or a key with the account scope).
    ...(o.tag === 'auth' ? { security: [] } : {}),
    ...(o.idParam ? { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 200 } }] } : {}),
    ...(o.body ? { requestBody: { required: true, content: { 'application/json': { schema: o.body } } } } : {}),
    responses: {
      [status]: {
        description: o.summary,
        ...(o.setsCookie ? { headers: cookieHeader } : {}),
        ...(o.answer ? { content: { 'application/json': { schema: o.answer } } } : {}),
      },
      ...Object.fromEntries(ERRORS.map((s) => [s, { $ref: `#/components/responses/Error${s}` }])),
      default: { $ref: '#/components/responses/Error' },
    },
  };
}

export const authOperations = {
  options: operation({ id: 'SignInOptions', summary: 'How one may sign up and sign in here', tag: 'auth', answer: data(object({ signup: text, emailLinks: text })) }),
  signUpOptions: operation({ id: 'SignUpOptions', summary: 'The WebAuthn options of a new passkey for signing up', tag: 'auth', body: object({ email: text, name: text }), answer: data(anyObject) }),
  signUp: operation({ id: 'SignUp', summary: 'Sign up with a new passkey', tag: 'auth', body: object({ credential }, ['credential']), status: 201, answer: signedIn(), setsCookie: true }),
  passkeyOptions: operation({ id: 'PasskeySignInOptions', summary: 'The WebAuthn options of signing in with a passkey', tag: 'auth', answer: data(anyObject) }),
  passkey: operation({ id: 'PasskeySignIn', summary: 'Sign in with a passkey', tag: 'auth', body: object({ credential }, ['credential']), answer: signedIn(), setsCookie: true }),
  emailLink: operation({
    id: 'RequestEmailLink',
    summary: 'Send a sign-in link to an address',
    tag: 'auth',
    body: object({ email: text }, ['email']),
    status: 202,
    answer: data(object({ delivery: text, message: text })),
  }),
  emailLinkDescribe: operation({ id: 'DescribeEmailLink', summary: 'What a sign-in link would do, without using it', tag: 'auth', body: object({ token: text }, ['token']), answer: data(anyObject) }),
  emailLinkSignIn: operation({
    id: 'EmailLinkSignIn',
    summary: 'Sign in with the link’s token (once, within 15 minutes)',
    tag: 'auth',
    body: object({ token: text }, ['token']),
    answer: signedIn({ created: { type: 'boolean' } }),
    setsCookie: true,
  }),
  apiKeySession: operation({
    id: 'ApiKeySession',
    summary: 'Turn an API key with every scope into a dashboard session',
    tag: 'auth',
    body: object({ apiKey: { type: 'string', maxLength: 4096 } }, ['apiKey']),
    answer: signedIn(),
    setsCookie: true,
  }),
  signOut: operation({ id: 'SignOut', summary: 'End this session and clear its cookie', tag: 'auth', status: 204, setsCookie: true }),
  sessions: operation({ id: 'ListSessions', summary: 'The account’s open sessions', tag: 'account', answer: data({ type: 'array', items: anyObject }) }),
  revokeSessions: operation({ id: 'RevokeAllSessions', summary: 'End every session of the account', tag: 'account', answer: data(object({ revoked: { type: 'integer' } }, ['revoked'])) }),
  revokeSession: operation({ id: 'RevokeSession', summary: 'End one session', tag: 'account', status: 204, idParam: true }),
  passkeys: operation({ id: 'ListPasskeys', summary: 'The account’s passkeys', tag: 'account', answer: data({ type: 'array', items: anyObject }) }),
  addPasskeyOptions: operation({ id: 'AddPasskeyOptions', summary: 'The WebAuthn options of another passkey', tag: 'account', answer: data(anyObject) }),
  addPasskey: operation({ id: 'AddPasskey', summary: 'Add a passkey to the account', tag: 'account', body: object({ credential, name: text }, ['credential']), status: 201, answer: data(anyObject) }),
  removePasskey: operation({ id: 'RemovePasskey', summary: 'Remove a passkey', tag: 'account', status: 204, idParam: true }),
};
