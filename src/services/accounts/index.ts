// Accounts: users and their API keys, browser sessions, passkeys and sign-in links. The rules are plain
// functions of an AccountContext in this folder's modules; these services bind them to one context, so
// callers say `services.sessions.open(…)`. Turning a request's credential into its user is
// authenticate.ts.
import type { Mailer } from '../../mail/mailer.js';
import { accountContext, type AccountContext, type AccountDeps } from './context.js';
import { addPasskey, addPasskeyOptions, listPasskeys, removePasskey, signInOptions, signInWithPasskey, signUp, signUpOptions } from './passkeys.js';
import { describeLink, linkDeliveryOf, pruneLinks, requestLink, sendLink, signInWithLink } from './email-links.js';
import { createApiKey, listApiKeys, revokeApiKey, userForApiKey } from './keys.js';
import { endSession, listSessions, openSession, pruneSessions, revokeAllSessions, revokeSession, userForSession } from './sessions.js';
import { createUser, profile, userForSubject } from './users.js';

export type { Viewer } from './context.js';
export { apiKeyName, effectiveScopes, keyScopesOf, type NewKeyOptions } from './keys.js';
export type { SessionView, SignInMethod } from './sessions.js';
export { createUserWithKey } from './users.js';
export { linkDeliveryOf, type LinkDelivery } from './email-links.js';

const binder =
  (ctx: AccountContext) =>
  <A extends unknown[], R>(rule: (ctx: AccountContext, ...args: A) => R) =>
  (...args: A): R =>
    rule(ctx, ...args);

function accountService(ctx: AccountContext) {
  const bound = binder(ctx);
  return {
    createUser: bound(createUser),
    createApiKey: bound(createApiKey),
    listApiKeys: bound(listApiKeys),
    profile: bound(profile),
    revokeApiKey: bound(revokeApiKey),
    userForApiKey: bound(userForApiKey),
    userForSubject: bound(userForSubject),
  };
}

function sessionService(ctx: AccountContext) {
  const bound = binder(ctx);
  return {
    maxAgeMs: ctx.sessionTimes.maxAgeMs,
    open: bound(openSession),
    userForSession: bound(userForSession),
    list: bound(listSessions),
    revoke: bound(revokeSession),
    end: bound(endSession),
    revokeAll: bound(revokeAllSessions),
    prune: bound(pruneSessions),
  };
}

function passkeyService(ctx: AccountContext) {
  const bound = binder(ctx);
  return {
    signUpOptions: bound(signUpOptions),
    signUp: bound(signUp),
    signInOptions: bound(signInOptions),
    signIn: bound(signInWithPasskey),
    addOptions: bound(addPasskeyOptions),
    add: bound(addPasskey),
    list: bound(listPasskeys),
    remove: bound(removePasskey),
  };
}

function emailLinkService(ctx: AccountContext) {
  const bound = binder(ctx);
  return {
    delivery: linkDeliveryOf(ctx.deps.config),
    request: bound(requestLink),
    send: bound(sendLink),
    describe: bound(describeLink),
    signIn: bound(signInWithLink),
    prune: bound(pruneLinks),
  };
}

export type AccountService = ReturnType<typeof accountService>;
export type SessionService = ReturnType<typeof sessionService>;
export type PasskeyService = ReturnType<typeof passkeyService>;
export type EmailLinkService = ReturnType<typeof emailLinkService>;

// The four account services over one context. `mailer`: where sign-in links are sent (none without SMTP_URL).
export function accountServices(deps: AccountDeps, mailer: Mailer | null) {
  const ctx = accountContext(deps, mailer);
  return { accounts: accountService(ctx), sessions: sessionService(ctx), passkeys: passkeyService(ctx), emailLinks: emailLinkService(ctx) };
}
