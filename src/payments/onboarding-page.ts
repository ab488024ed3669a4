// GET /billing/payouts: where payout onboarding sends an owner back (the processor's hosted onboarding,
// or the simulated provider's link directly). A plain page that says what happened and what is next;
// nothing from the query string is echoed into it.
import type { IncomingMessage, ServerResponse } from 'node:http';

const page = (title: string, text: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}</style></head>
<body><h1>${title}</h1><p>${text}</p></body></html>`;

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
