// GET /billing/payouts: where payout onboarding sends an owner back (the processor's hosted onboarding,
// or the simulated provider's link directly). A plain page that says what happened and what is next;
// nothing from the query string is echoed into it.
import type { IncomingMessage, ServerResponse } from 'node:http';

// Styled like the dashboard (its header and colours), with the way back to it.
const STYLE = [
  'body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#f8fafc}',
  'header{display:flex;justify-content:space-between;align-items:center;gap:1rem;padding:.75rem 1rem;background:#fff;border-bottom:1px solid #d1d5db}',
  'header a{color:#1d4ed8;text-decoration:none}.brand{font-weight:700;color:#1f2937}',
  'main{max-width:36rem;margin:2rem auto;padding:1.25rem;background:#fff;border:1px solid #d1d5db;border-radius:8px}',
  'h1{font-size:1.5rem;margin:0 0 .5rem}code{background:#eef2f7;padding:0 .3rem;border-radius:4px}',
  '.button{display:inline-block;margin-top:.5rem;padding:.45rem .9rem;border-radius:8px;background:#1d4ed8;color:#fff;text-decoration:none}',
].join('');
const page = (title: string, text: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Task marketplace</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><style>${STYLE}</style></head>
<body><header><a class="brand" href="/">Task marketplace</a><nav><a href="/my/agents">My agents</a></nav></header>
<main><h1>${title}</h1><p>${text}</p><a class="button" href="/my/agents">Back to my agents</a></main></body></html>`;

export function payoutReturnRoute() {
  return {
    method: 'GET',
    path: '/billing/payouts',
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const refresh = new URL(req.url ?? '/', 'http://service.internal').searchParams.get('onboarding') === 'refresh';
      const html = refresh
        ? page('Payout setup link expired', 'Ask for a new link with <code>POST /v1/billing/connect</code> and open it again.')
        : page('Payout setup finished', 'Your payouts are set up. Shares owed for tasks completed earlier are being transferred. You can close this page.');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html), 'cache-control': 'no-store' });
      res.end(html);
    },
  };
}
