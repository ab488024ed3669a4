import { describe, expect, it, vi } from 'vitest';
import { checkEndpointUrl, checkUrlShape, type ResolveHost } from '../../../src/delivery/url-guard.js';

const resolvesTo =
  (...addresses: string[]): ResolveHost =>
  async () =>
    addresses;

const mustNotResolve: ResolveHost = async (hostname) => {
  throw new Error(`resolver called for ${hostname}`);
};

function reasonOf(result: { ok: boolean; reason?: string }): string {
  if (result.ok) throw new Error('expected a refusal');
  return result.reason ?? '';
}

describe('checkUrlShape', () => {
  it.each(['https://agent.example.com/hook', 'http://agent.example.com:8080/a?b=c', 'HTTPS://Agent.Example.com'])(
    'accepts %s',
    (raw) => {
      const result = checkUrlShape(raw);
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.url.protocol).toMatch(/^https?:$/);
    },
  );

  it.each([
    ['/relative/path', /absolute/],
    ['agent.example.com/hook', /absolute/],
    ['ftp://agent.example.com/', /absolute/],
    ['javascript:alert(1)', /absolute/],
    ['http:agent.example.com', /absolute/],
    ['https://user:pass@agent.example.com/', /credentials/],
    ['https://user@agent.example.com/', /credentials/],
    ['https://agent.exa\tmple.com/', /whitespace/],
    [' https://agent.example.com/', /absolute/],
    ['https://agent.example.com\\@evil.example/', /backslash/],
    ['https://', /not valid/],
    ['https://[::1/', /not valid/],
  ])('refuses %j', (raw, reason) => {
    expect(reasonOf(checkUrlShape(raw))).toMatch(reason);
  });
});

describe('checkEndpointUrl', () => {
  it('accepts a name whose every address is public', async () => {
    const result = await checkEndpointUrl('https://agent.example.com/hook', {
      allowPrivate: false,
      resolve: resolvesTo('93.184.216.34', '2606:4700::1111'),
    });
    expect(result.ok).toBe(true);
  });

  it('refuses a name when any one of its addresses is forbidden', async () => {
    const result = await checkEndpointUrl('https://agent.example.com/hook', {
      allowPrivate: false,
      resolve: resolvesTo('93.184.216.34', '10.0.0.1'),
    });
    expect(reasonOf(result)).toBe('the address of agent.example.com is not allowed (private, loopback or reserved)');
    expect(reasonOf(result)).not.toContain('10.0.0.1');
  });

  it('refuses a name that does not resolve', async () => {
    const failing: ResolveHost = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const result = await checkEndpointUrl('https://nowhere.invalid/', { allowPrivate: false, resolve: failing });
    expect(reasonOf(result)).toMatch(/does not resolve/);
  });

  it('refuses a name that resolves to nothing', async () => {
    const result = await checkEndpointUrl('https://empty.example/', { allowPrivate: false, resolve: resolvesTo() });
    expect(reasonOf(result)).toMatch(/does not resolve/);
  });

  it.each(['http://localhost:3000/', 'http://LOCALHOST./', 'http://api.localhost/'])(
    'refuses %s without resolving it',
    async (raw) => {
      const resolve = vi.fn(mustNotResolve);
      expect(reasonOf(await checkEndpointUrl(raw, { allowPrivate: false, resolve }))).toMatch(/local/);
      expect(resolve).not.toHaveBeenCalled();
    },
  );

  it.each([
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://[::ffff:127.0.0.1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00::1]/',
  ])('judges the IP literal in %s directly', async (raw) => {
    const resolve = vi.fn(mustNotResolve);
    expect(reasonOf(await checkEndpointUrl(raw, { allowPrivate: false, resolve }))).toMatch(/not allowed/);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('accepts a public IP literal without resolving', async () => {
    const resolve = vi.fn(mustNotResolve);
    expect((await checkEndpointUrl('https://8.8.8.8/hook', { allowPrivate: false, resolve })).ok).toBe(true);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('with allowPrivate applies only the shape checks', async () => {
    const resolve = vi.fn(mustNotResolve);
    expect((await checkEndpointUrl('http://127.0.0.1:4000/hook', { allowPrivate: true, resolve })).ok).toBe(true);
    expect((await checkEndpointUrl('http://localhost/', { allowPrivate: true, resolve })).ok).toBe(true);
    expect(resolve).not.toHaveBeenCalled();
    expect(reasonOf(await checkEndpointUrl('ftp://127.0.0.1/', { allowPrivate: true }))).toMatch(/absolute/);
    expect(reasonOf(await checkEndpointUrl('http://a:b@127.0.0.1/', { allowPrivate: true }))).toMatch(/credentials/);
  });
});
