// The fuzz's cases for signing in and for the OAuth authorization server (scripts/fuzz.ts runs them): the
// /v1/auth/* and /v1/account/* routes (JSON bodies that cannot be read, and each field the routes read set
// to values of every kind), and /oauth/register, /oauth/token, /oauth/revoke and the /.well-known
// documents (malformed JSON and forms, hostile values, wrong media types). OAuth refusals are the
// protocol's own ({ error, error_description }, RFC 6749 §5.2), so they name no `field`; everything else
// is judged as any REST answer.
import type { Judge, Send } from './fuzz-protocols.js';

export interface AuthFuzz {
  send: Send;
  judge: Judge;
  budgetLeft(): boolean;
}

const NUL = '\u0000';

// Values a field of a sign-in body must refuse in words.
const values: Record<string, unknown> = {
  null: null,
  'a number': 12345,
  'a list': [1, null],
  'an object': { a: { b: 1 } },
  'a NUL': `a${NUL}b`,
  'a lone surrogate': '\ud800',
  'a 100 000-character string': 'x'.repeat(100_000),
  'an address with NUL': `a${NUL}@example.com`,
};
const unreadable: Record<string, string> = {
  'invalid JSON': '{"email":',
  'a JSON list': '[1,2]',
  'JSON null': 'null',
  'a JSON string': '"x"',
  'nested 5 000 deep': '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
};

// Each route with the fields it reads.
const authRoutes: Array<[string, string, string[]]> = [
  ['GET', '/v1/auth/options', []],
  ['POST', '/v1/auth/sign-up/options', ['email', 'name']],
  ['POST', '/v1/auth/sign-up', ['credential', 'email', 'name']],
  ['POST', '/v1/auth/passkey/options', []],
  ['POST', '/v1/auth/passkey', ['credential']],
  ['POST', '/v1/auth/email-link', ['email']],
  ['POST', '/v1/auth/email-link/sign-in', ['token']],
  ['POST', '/v1/auth/api-key-session', ['apiKey']],
  ['GET', '/v1/account/sessions', []],
  ['DELETE', '/v1/account/sessions/%zz', []],
  ['DELETE', `/v1/account/sessions/${'x'.repeat(5000)}`, []],
  ['GET', '/v1/account/passkeys', []],
  ['POST', '/v1/account/passkeys/options', []],
  ['POST', '/v1/account/passkeys', ['credential', 'name']],
  ['DELETE', '/v1/account/passkeys/%00', []],
];

export async function fuzzAuth(f: AuthFuzz): Promise<void> {
  await fuzzSignIn(f);
  await fuzzOAuth(f);
}

async function fuzzSignIn(f: AuthFuzz) {
  for (const [method, path, fields] of authRoutes) {
    const target = `${method} ${path.length > 60 ? `${path.slice(0, 40)}…` : path}`;
    // Without credentials, with a forged one, and (the fuzz's key, when it has one) signed in.
    for (const auth of [false, true]) {
      if (!f.budgetLeft()) return;
      const plain = await f.send(method, path, { auth, ...(method === 'POST' ? { body: '{}' } : {}), headers: auth ? {} : { authorization: 'Bearer tmk_forged' } });
      f.judge(target, auth ? 'signed in, body {}' : 'a forged key', plain.status, plain.text);
    }
    if (method !== 'POST') continue;
    for (const [name, body] of Object.entries(unreadable)) {
      if (!f.budgetLeft()) return;
      const res = await f.send(method, path, { body, auth: false });
      f.judge(target, `body: ${name}`, res.status, res.text);
    }
    const wrongType = await f.send(method, path, { body: 'email=a', auth: false, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    f.judge(target, 'body: a form', wrongType.status, wrongType.text);
    for (const field of fields) {
      for (const [name, value] of Object.entries(values)) {
        if (!f.budgetLeft()) return;
        const res = await f.send(method, path, { body: JSON.stringify({ [field]: value }), auth: false });
        f.judge(target, `${field}: ${name}`, res.status, res.text);
      }
    }
  }
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function fuzzOAuth(f: AuthFuzz) {
  const formType = { 'content-type': 'application/x-www-form-urlencoded' };
  const json = { 'content-type': 'application/json' };
  const cases: Array<[string, string, string, { body?: string; headers?: Record<string, string> }]> = [
    ['/oauth/register', 'invalid JSON', 'POST', { body: '{"redirect_uris":', headers: json }],
    ['/oauth/register', 'a JSON list', 'POST', { body: '[1]', headers: json }],
    ['/oauth/register', 'redirect_uris a string', 'POST', { body: JSON.stringify({ redirect_uris: 'https://x.example/cb' }), headers: json }],
    ['/oauth/register', 'redirect_uris of nulls', 'POST', { body: JSON.stringify({ redirect_uris: [null, 1] }), headers: json }],
    ['/oauth/register', '10 000 redirect_uris', 'POST', { body: JSON.stringify({ redirect_uris: Array.from({ length: 10_000 }, (_, i) => `https://x.example/${i}`) }), headers: json }],
    ['/oauth/register', 'a javascript: redirect', 'POST', { body: JSON.stringify({ redirect_uris: ['javascript:alert(1)'], client_name: 'x' }), headers: json }],
    ['/oauth/register', 'a client_name with NUL and 100 000 characters', 'POST', { body: JSON.stringify({ redirect_uris: ['https://x.example/cb'], client_name: `${NUL}${'n'.repeat(100_000)}` }), headers: json }],
    ['/oauth/register', 'grant_types an object', 'POST', { body: JSON.stringify({ redirect_uris: ['https://x.example/cb'], grant_types: { a: 1 }, token_endpoint_auth_method: 5 }), headers: json }],
    ['/oauth/register', 'a form instead of JSON', 'POST', { body: 'redirect_uris=x', headers: formType }],
    ['/oauth/register', 'a body over the limit', 'POST', { body: JSON.stringify({ client_name: 'x'.repeat(2_000_000) }), headers: json }],
    ['/oauth/token', 'no grant_type', 'POST', { body: form({ code: 'x' }), headers: formType }],
    ['/oauth/token', 'an unknown grant_type', 'POST', { body: form({ grant_type: 'password', username: 'a', password: 'b' }), headers: formType }],
    ['/oauth/token', 'a forged code', 'POST', { body: form({ grant_type: 'authorization_code', code: 'forged', redirect_uri: 'https://x.example/cb', client_id: 'nope', code_verifier: 'v' }), headers: formType }],
    ['/oauth/token', 'a code with NUL', 'POST', { body: form({ grant_type: 'authorization_code', code: `a${NUL}`, client_id: `c${NUL}` }), headers: formType }],
    ['/oauth/token', 'a forged refresh token', 'POST', { body: form({ grant_type: 'refresh_token', refresh_token: 'x'.repeat(100_000), client_id: 'nope' }), headers: formType }],
    ['/oauth/token', 'each parameter twice', 'POST', { body: 'grant_type=refresh_token&grant_type=authorization_code&code=a&code=b', headers: formType }],
    ['/oauth/token', 'malformed percent-encoding', 'POST', { body: 'grant_type=%zz&code=%', headers: formType }],
    ['/oauth/token', 'JSON instead of a form', 'POST', { body: JSON.stringify({ grant_type: 'authorization_code', code: 'x' }), headers: json }],
    ['/oauth/token', 'a resource that is not a URL', 'POST', { body: form({ grant_type: 'authorization_code', code: 'x', resource: 'not a url' }), headers: formType }],
    ['/oauth/token', 'a body over the limit', 'POST', { body: form({ grant_type: 'refresh_token', refresh_token: 'x'.repeat(2_000_000) }), headers: formType }],
    ['/oauth/revoke', 'no token', 'POST', { body: form({}), headers: formType }],
    ['/oauth/revoke', 'a forged token', 'POST', { body: form({ token: 'forged', client_id: 'nope' }), headers: formType }],
    ['/oauth/revoke', 'a token with NUL', 'POST', { body: form({ token: `t${NUL}`, token_type_hint: `x${NUL}` }), headers: formType }],
    ['/oauth/revoke', 'a 100 000-character token', 'POST', { body: form({ token: 'x'.repeat(100_000) }), headers: formType }],
    ['/oauth/revoke', 'JSON instead of a form', 'POST', { body: '{"token":', headers: json }],
    ['/oauth/revoke', 'an unknown token_type_hint and client', 'POST', { body: form({ token: 'x', token_type_hint: 'id_token', client_id: 'x'.repeat(10_000) }), headers: formType }],
    ['/oauth/token', 'GET', 'GET', {}],
    ['/.well-known/oauth-authorization-server', 'a malformed query', 'GET', {}],
    ['/.well-known/oauth-protected-resource', 'plain', 'GET', {}],
    ['/.well-known/oauth-protected-resource/mcp', 'plain', 'GET', {}],
    ['/.well-known/oauth-protected-resource/a2a', 'plain', 'GET', {}],
    ['/.well-known/oauth-protected-resource/%zz', 'a malformed path', 'GET', {}],
    ['/.well-known/oauth-authorization-server', 'POST', 'POST', { body: '{}', headers: json }],
    ['/oauth/authorize', 'a hostile query', 'GET', {}],
  ];
  for (const [path, name, method, init] of cases) {
    if (!f.budgetLeft()) return;
    const query = name === 'a malformed query' ? '?x=%zz&y=%00' : name === 'a hostile query' ? `?client_id=%00&redirect_uri=javascript:alert(1)&response_type=${'x'.repeat(5000)}&scope=%zz` : '';
    const res = await f.send(method, `${path}${query}`, { ...init, auth: false });
    f.judge(`OAuth ${path}`, name, res.status, res.text, { oauth: true });
  }
}
