// A stand-in for Stripe's browser side, served at Stripe's own addresses through Playwright's route
// interception (the network boundary: Stripe cannot be reached from these machines):
// - https://js.stripe.com/v3/ : Stripe.js, only the calls the dashboard makes: Stripe(pk),
//   elements({ clientSecret }), create('payment'), mount, destroy, confirmPayment and confirmSetup with
//   redirect: 'if_required', and the 3-D Secure step when the intent asks for it.
// - the Payment Element's frame on js.stripe.com, where the card is typed: it sends the card to Stripe's
//   API itself (with the publishable key and the client secret), so the card never passes through the
//   dashboard's scripts, as with Stripe's own element;
// - a 3-D Secure challenge frame on hooks.stripe.com with Stripe's test page's two answers;
// - https://api.stripe.com/ : forwarded to the local Stripe API stand-in (stripe-standin.ts), which
//   confirms the intent and sends the signed webhook to the service, as Stripe would;
// - the hosted Connect onboarding on connect.stripe.com: submitting marks the account's details given and
//   goes back to the link's return URL.
import type { BrowserContext } from 'playwright-core';
import type { StripeStandin } from './stripe-standin.js';

// Stripe.js as the page loads it. Messages between frames are checked by origin, as Stripe's are.
const STRIPE_JS = String.raw`(() => {
  const FRAME_ORIGIN = 'https://js.stripe.com';
  const CHALLENGE_ORIGIN = 'https://hooks.stripe.com';
  const idOf = (secret) => secret.slice(0, secret.indexOf('_secret_'));

  function reply(frameWindow, origin, message, type) {
    return new Promise((resolve) => {
      const listen = (event) => {
        if (event.origin !== origin || event.source !== frameWindow || !event.data || event.data.type !== type) return;
        window.removeEventListener('message', listen);
        resolve(event.data);
      };
      window.addEventListener('message', listen);
      if (message) frameWindow.postMessage(message, origin);
    });
  }

  // The 3-D Secure step: Stripe's challenge in a frame over the page, answered by the cardholder there.
  async function challenge(key, clientSecret) {
    const overlay = document.createElement('div');
    // Styles through the CSSOM, as Stripe.js sets them: the page's policy refuses style attributes.
    Object.assign(overlay.style, { position: 'fixed', inset: '0', background: 'rgba(0,0,0,.5)', display: 'flex', alignItems: 'center', justifyContent: 'center', zIndex: '1000' });
    const frame = document.createElement('iframe');
    frame.title = '3D Secure authentication';
    Object.assign(frame.style, { width: 'min(400px, 90vw)', height: '300px', border: '0', background: '#fff' });
    const params = new URLSearchParams({ key, clientSecret, origin: location.origin });
    frame.src = CHALLENGE_ORIGIN + '/3d_secure_2/test#' + params;
    overlay.appendChild(frame);
    document.body.appendChild(overlay);
    try {
      const answer = await reply(frame.contentWindow, CHALLENGE_ORIGIN, null, 'stand-in:authenticated');
      return answer.json;
    } finally {
      overlay.remove();
    }
  }

  window.Stripe = function Stripe(key) {
    if (!/^pk_(test|live)_\w+$/.test(String(key))) throw new Error('IntegrationError: Invalid API Key provided: ' + key);
    async function confirm(kind, elements) {
      if (!elements || !elements._frame) throw new Error('IntegrationError: the Payment Element is not mounted');
      const answer = await reply(elements._frame.contentWindow, FRAME_ORIGIN, { type: 'stand-in:confirm' }, 'stand-in:confirmed');
      if (answer.json.error) return { error: answer.json.error };
      let intent = answer.json;
      if (intent.status === 'requires_action') intent = await challenge(key, elements._clientSecret);
      if (intent.status === 'requires_payment_method') {
        const e = intent.last_payment_error || {};
        return { error: { type: 'card_error', code: e.code, message: e.message || 'Your card was declined.' } };
      }
      return kind === 'payment' ? { paymentIntent: intent } : { setupIntent: intent };
    }
    return {
      elements({ clientSecret }) {
        const elements = {
          _clientSecret: clientSecret,
          _frame: null,
          create(type) {
            if (type !== 'payment') throw new Error('IntegrationError: only the payment element is stood in');
            return {
              mount(target) {
                const node = typeof target === 'string' ? document.querySelector(target) : target;
                const frame = document.createElement('iframe');
                frame.title = 'Secure payment input frame';
                Object.assign(frame.style, { display: 'block', width: '100%', height: '210px', border: '0' });
                const kind = idOf(clientSecret).startsWith('seti_') ? 'setup' : 'payment';
                frame.src = FRAME_ORIGIN + '/v3/elements-inner-payment.html#' + new URLSearchParams({ key, clientSecret, kind, origin: location.origin });
                node.appendChild(frame);
                elements._frame = frame;
              },
              destroy() {
                if (elements._frame) elements._frame.remove();
                elements._frame = null;
              },
              on() {},
            };
          },
        };
        return elements;
      },
      confirmPayment({ elements }) {
        return confirm('payment', elements);
      },
      confirmSetup({ elements }) {
        return confirm('setup', elements);
      },
    };
  };
})();`;

// The Payment Element's frame: the card fields, and the call to Stripe's API with them.
const ELEMENT_HTML = String.raw`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Payment details</title>
<style>body{margin:0;font:15px system-ui,sans-serif;color:#1f2937}label{display:block;margin:.4rem 0 .15rem}input{box-sizing:border-box;width:100%;padding:.45rem;border:1px solid #6b7280;border-radius:6px;font:inherit}.row{display:flex;gap:.5rem}.row>div{flex:1}</style></head>
<body><main>
<label for="number">Card number</label><input id="number" autocomplete="cc-number" inputmode="numeric" placeholder="1234 1234 1234 1234">
<div class="row"><div><label for="expiry">Expiration date</label><input id="expiry" autocomplete="cc-exp" placeholder="MM / YY"></div>
<div><label for="cvc">Security code</label><input id="cvc" autocomplete="cc-csc" placeholder="CVC"></div></div>
</main>
<script>
const params = new URLSearchParams(location.hash.slice(1));
const key = params.get('key'), clientSecret = params.get('clientSecret'), kind = params.get('kind'), parentOrigin = params.get('origin');
const id = clientSecret.slice(0, clientSecret.indexOf('_secret_'));
window.addEventListener('message', async (event) => {
  if (event.origin !== parentOrigin || event.source !== window.parent || !event.data || event.data.type !== 'stand-in:confirm') return;
  const [month, year] = document.getElementById('expiry').value.split('/').map((v) => v.trim());
  const body = new URLSearchParams({
    key, client_secret: clientSecret,
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': document.getElementById('number').value,
    'payment_method_data[card][exp_month]': month || '',
    'payment_method_data[card][exp_year]': year || '',
    'payment_method_data[card][cvc]': document.getElementById('cvc').value,
  });
  const res = await fetch('https://api.stripe.com/v1/' + (kind === 'setup' ? 'setup_intents' : 'payment_intents') + '/' + id + '/confirm', { method: 'POST', body });
  window.parent.postMessage({ type: 'stand-in:confirmed', json: await res.json() }, parentOrigin);
});
</script></body></html>`;

// Stripe's test 3-D Secure page: the cardholder completes or fails the authentication.
const CHALLENGE_HTML = String.raw`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>3D Secure test page</title>
<style>body{font:15px system-ui,sans-serif;padding:1rem}button{margin:.3rem;padding:.5rem .9rem;font:inherit}</style></head>
<body><main><h1>3D Secure 2 test page</h1><p>This is a test payment that needs authentication.</p>
<button id="complete" type="button">Complete authentication</button><button id="fail" type="button">Fail authentication</button></main>
<script>
const params = new URLSearchParams(location.hash.slice(1));
const key = params.get('key'), clientSecret = params.get('clientSecret'), parentOrigin = params.get('origin');
const id = clientSecret.slice(0, clientSecret.indexOf('_secret_'));
async function answer(outcome) {
  const body = new URLSearchParams({ key, client_secret: clientSecret, outcome });
  const res = await fetch('https://api.stripe.com/v1/payment_intents/' + id + '/authenticate', { method: 'POST', body });
  window.parent.postMessage({ type: 'stand-in:authenticated', json: await res.json() }, parentOrigin);
}
document.getElementById('complete').onclick = () => answer('complete');
document.getElementById('fail').onclick = () => answer('fail');
</script></body></html>`;

const ONBOARDING_HTML = (account: string) => String.raw`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stripe Express onboarding (stand-in)</title></head>
<body><main><h1>Set up payouts</h1><p>Account ${account}</p><form method="post"><button type="submit">Submit details</button></form></main></body></html>`;

export interface StripeBrowserSide {
  // Bodies of the requests the browser sent to Stripe's API (where the card goes).
  apiBodies: string[];
}

export async function serveStripeToBrowser(context: BrowserContext, standin: StripeStandin): Promise<StripeBrowserSide> {
  const apiBodies: string[] = [];
  await context.route(/^https:\/\/js\.stripe\.com\/v3\/(\?.*)?$/, (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body: STRIPE_JS }),
  );
  await context.route(/^https:\/\/js\.stripe\.com\/v3\/elements-inner-payment\.html/, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: ELEMENT_HTML }),
  );
  await context.route(/^https:\/\/hooks\.stripe\.com\/3d_secure_2\/test/, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: CHALLENGE_HTML }),
  );
  await context.route(/^https:\/\/api\.stripe\.com\//, async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const body = request.postData() ?? undefined;
    if (body) apiBodies.push(body);
    const res = await fetch(`${standin.url}${url.pathname}${url.search}`, {
      method: request.method(),
      headers: { 'content-type': request.headers()['content-type'] ?? 'application/x-www-form-urlencoded' },
      body,
    });
    await route.fulfill({ status: res.status, headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*' }, body: await res.text() });
  });
  await context.route(/^https:\/\/connect\.stripe\.com\//, async (route) => {
    const link = standin.accountLinks.get(route.request().url());
    if (!link) return route.fulfill({ status: 404, contentType: 'text/plain', body: 'This onboarding link has expired.' });
    if (route.request().method() !== 'POST') return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: ONBOARDING_HTML(link.account) });
    // Details given: the account waits for Stripe's checks (the test makes it enabled later).
    const account = standin.accounts.get(link.account)!;
    account.details_submitted = true;
    return route.fulfill({ status: 303, headers: { location: link.returnUrl } });
  });
  return { apiBodies };
}
