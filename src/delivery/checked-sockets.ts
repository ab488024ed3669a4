// Kept-alive sockets for the guarded exchanges (guarded-request.ts), so that a delivery to an agent does
// not open a new connection each time. The address check must hold for a reused socket too: each pool
// belongs to one set of addresses that passed the check, and its sockets are dialled only to those (the
// lookup hands over that set and nothing else). A request whose host now resolves elsewhere gets the
// pool of its new addresses, never a socket opened to the old ones under another check.
//
// Bounded: at most MAX_POOLS sets of addresses (the least recently used pool is closed past that), at
// most MAX_IDLE_SOCKETS idle sockets a pool, each closed after IDLE_TIMEOUT_MS unused (or sooner when
// the server's Keep-Alive header asks).
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

const MAX_POOLS = 256;
const MAX_IDLE_SOCKETS = 8;
// Below the 5 s that Node's and many servers' keep-alive timeouts default to, so that the client closes
// an idle socket before the server does (a request on a socket the server is closing fails).
const IDLE_TIMEOUT_MS = 4_000;

type Pool = HttpAgent | HttpsAgent;
const pools = new Map<string, Pool>();

// The pool for exchanges over `protocol` with a host whose addresses (all of them checked) are these.
export function checkedPool(protocol: 'http:' | 'https:', addresses: readonly LookupAddress[]): Pool {
  const key = `${protocol}${addresses.map((a) => a.address).join(',')}`;
  const found = pools.get(key);
  if (found) {
    // Most recently used last, so that the first key is the one to close.
    pools.delete(key);
    pools.set(key, found);
    return found;
  }
  const options = { keepAlive: true, maxFreeSockets: MAX_IDLE_SOCKETS, timeout: IDLE_TIMEOUT_MS, scheduling: 'lifo' as const };
  const pool = protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
  pools.set(key, pool);
  if (pools.size > MAX_POOLS) {
    const [oldest] = pools.keys();
    pools.get(oldest!)!.destroy();
    pools.delete(oldest!);
  }
  return pool;
}

// A socket's lookup that hands over the checked addresses and nothing else.
export function checkedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    const usable = addresses.filter((a) => wanted === 0 || a.family === wanted);
    const first = usable[0];
    if (first === undefined) return callback(Object.assign(new Error('no checked address of the family asked for'), { code: 'ENOTFOUND' }), '');
    if (options.all) return callback(null, usable);
    callback(null, first.address, first.family);
  };
}
