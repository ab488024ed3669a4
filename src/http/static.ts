// Serves the dashboard built by `npm run build:web` (dist/web). Hashed files under /assets/ are cached
// for good; index.html answers the dashboard's own routes so that a reload or a shared link works, and
// is never cached so a new build shows at once. Paths outside the folder are never read. A browser
// asking for an unknown page gets the dashboard's styled not-found page with status 404.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './respond.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

// The dashboard's client-side routes (web/src/router.ts); anything else falls through to a 404.
const PAGES = [/^\/$/, /^\/sign-in$/, /^\/sign-in\/email$/, /^\/sign-up$/, /^\/oauth\/authorize$/, /^\/account$/, /^\/agents\/[^/]+$/, /^\/tasks(\/[^/]+)?$/, /^\/my\/agents(\/[^/]+)?$/, /^\/billing(\/payouts)?$/];
const ROOT_FILES = new Set(['/favicon.svg']);

// The dashboard page's own limits on what it may load and who may frame it: scripts, styles and
// connections (fetch and the live WebSocket) only from this origin, no plugins, no <base> tricks, and no
// framing (clickjacking). A script injected into the page could still not load code from elsewhere or
// send what it reads to another host. 'unsafe-eval' is for the task form: its validator (ajv, as
// react-jsonschema-form uses it) compiles the agent's inputSchema into a function; inline scripts stay
// refused.
// With Stripe, the page also loads Stripe.js from Stripe and lets it do its work, and nothing more of
// Stripe than that (Stripe's own list): its script (js.stripe.com), its frames (the Payment Element on
// js.stripe.com, 3-D Secure through hooks.stripe.com) and its API (api.stripe.com).
const STRIPE_SOURCES = { script: 'https://js.stripe.com', frame: 'https://js.stripe.com https://hooks.stripe.com', connect: 'https://api.stripe.com' };

export function pageSecurityHeaders(opts: { stripe: boolean }): Record<string, string> {
  const stripe = (sources: string) => (opts.stripe ? ` ${sources}` : '');
  return {
    'content-security-policy': [
      "default-src 'self'",
      `script-src 'self' 'unsafe-eval'${stripe(STRIPE_SOURCES.script)}`,
      "style-src 'self'",
      // Agents' icons (from their A2A cards) live on their own hosts.
      // blob: for previews of a task's images and audio, read with the credential (components/FileList.tsx).
      "img-src 'self' data: https: blob:",
      "media-src 'self' blob:",
      `connect-src 'self'${stripe(STRIPE_SOURCES.connect)}`,
      ...(opts.stripe ? [`frame-src ${STRIPE_SOURCES.frame}`] : []),
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; '),
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
  };
}

export interface StaticOptions {
  dir: string;
  // Tells the sign-in page whether access tokens of an identity provider are accepted.
  jwtSignIn: boolean;
  // Payments through Stripe: the page's policy lets Stripe.js in.
  stripe?: boolean;
}

export function createStaticHandler(opts: StaticOptions) {
  const root = path.resolve(opts.dir);
  const securityHeaders = pageSecurityHeaders({ stripe: opts.stripe ?? false });
  let index: Promise<string | null> | null = null;

  function indexHtml(): Promise<string | null> {
    // Read once per process; a failed read (not built yet) is retried on the next request.
    index ??= readFile(path.join(root, 'index.html'), 'utf8')
      .then((html) => html.replace('%JWT_SIGN_IN%', opts.jwtSignIn ? 'on' : 'off'))
      .catch(() => {
        index = null;
        return null;
      });
    return index;
  }

  // Whether the request is for the dashboard; when it is, the answer has been sent.
  return async function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const isAsset = pathname.startsWith('/assets/');
    if (isAsset || ROOT_FILES.has(pathname)) {
      const file = resolveInside(root, pathname);
      const body = file ? await readFile(file).catch(() => null) : null;
      if (!body) {
        sendError(res, { code: 'NOT_FOUND', message: `no such file: ${pathname}` });
        return true;
      }
      // The build writes a .gz beside each script and stylesheet.
      const gzip = isAsset && acceptsGzip(req) ? await readFile(`${file}.gz`).catch(() => null) : null;
      const type = CONTENT_TYPES[path.extname(file!)] ?? 'application/octet-stream';
      const cache = isAsset ? 'public, max-age=31536000, immutable' : 'no-cache';
      send(req, res, gzip ?? body, type, cache, gzip ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : isAsset ? { vary: 'accept-encoding' } : {});
      return true;
    }
    const page = PAGES.some((p) => p.test(pathname));
    // A browser opening an unknown address gets the dashboard's own "Page not found" (with status 404)
    // rather than the API's JSON answer; API clients (no text/html in Accept) still get JSON.
    if (!page && !wantsHtml(req)) return false;
    const html = await indexHtml();
    if (html === null) {
      if (!page) return false;
      sendError(res, { code: 'NOT_FOUND', message: 'the dashboard is not built; run: npm run build:web' });
      return true;
    }
    send(req, res, Buffer.from(html), CONTENT_TYPES['.html']!, 'no-cache', securityHeaders, page ? 200 : 404);
    return true;
  };
}

// The file a URL path names, or null when it would leave the folder (../, encoded slashes, NUL).
export function resolveInside(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const file = path.resolve(root, '.' + path.posix.normalize(decoded));
  return file.startsWith(root + path.sep) ? file : null;
}

function acceptsGzip(req: IncomingMessage): boolean {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [name, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return name === 'gzip' && (q === undefined || Number(q.slice(2)) > 0);
  });
}

// A browser navigation asks for HTML first; fetch and API clients do not.
function wantsHtml(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  return typeof accept === 'string' && /(^|,)\s*text\/html/i.test(accept);
}

function send(req: IncomingMessage, res: ServerResponse, body: Buffer, type: string, cache: string, extra: Record<string, string> = {}, status = 200): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': body.length,
    'cache-control': cache,
    'x-content-type-options': 'nosniff',
    ...extra,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
