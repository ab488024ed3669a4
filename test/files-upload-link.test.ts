// A pre-signed upload link (createFileUpload) is a link to "POST one file" (issue 46, item 6): it stores
// one file, also when uploads by it race; an upload by it that fails frees it; and it stores nothing once
// the API key that asked for it is revoked.
import { expect, it } from 'vitest';
import { testWith } from './support/fixtures.js';
import type { TestServer } from './support/server.js';

let server: TestServer;
let user: { id: string; apiKey: string };

const test = testWith({ serverEnv: { FILE_MAX_BYTES: '1000' } });

test.beforeAll(async ({ server: s }) => {
  server = s;
  user = await server.createUser();
});

const linkFor = async (key: string): Promise<string> => {
  const res = await server.api.post('/graphql', { key, body: { query: 'mutation { createFileUpload { url expiresAt } }' } });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.createFileUpload.url as string;
};
const uploadTo = async (url: string, text: string) => {
  const res = await fetch(`${url}&filename=${encodeURIComponent(`${text}.txt`)}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: text });
  return { status: res.status, body: (await res.json()) as { data?: { id: string }; error?: { code: string; message: string } } };
};
const filesOf = async (ownerId: string) => server.sql.selectFrom('files').select(['id', 'filename', 'status']).where('ownerId', '=', ownerId).execute();

it('stores one file; a second upload by the same link is refused with 409', async () => {
  const owner = await server.createUser();
  const url = await linkFor(owner.apiKey);
  const first = await uploadTo(url, 'one');
  expect(first.status).toBe(201);
  const second = await uploadTo(url, 'two');
  expect(second.status).toBe(409);
  expect(second.body.error).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('createFileUpload') });
  expect(await filesOf(owner.id)).toEqual([{ id: first.body.data!.id, filename: 'one.txt', status: 'stored' }]);
});

it('stores one file when three uploads by one link race', async () => {
  const owner = await server.createUser();
  const url = await linkFor(owner.apiKey);
  const answers = await Promise.all(['a', 'b', 'c'].map((text) => uploadTo(url, text)));
  expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
  expect(await filesOf(owner.id)).toHaveLength(1);
});

it('is free again after an upload by it failed (larger than FILE_MAX_BYTES)', async () => {
  const owner = await server.createUser();
  const url = await linkFor(owner.apiKey);
  // A body declared larger than a file may be is refused before a byte is stored.
  const refused = await fetch(`${url}&filename=big.bin`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.alloc(5000) });
  expect(refused.status).toBe(413);
  const after = await uploadTo(url, 'fits');
  expect(after.status).toBe(201);
  expect(await filesOf(owner.id)).toHaveLength(1);
});

it('stores nothing once the key that made it is revoked', async () => {
  const made = await server.api.post('/v1/api-keys', { key: user.apiKey, body: { name: 'for a link' } });
  expect(made.status).toBe(201);
  const { id: keyId, apiKey } = made.body.data as { id: string; apiKey: string };
  const url = await linkFor(apiKey);
  const revoked = await server.api.call('DELETE', `/v1/api-keys/${keyId}`, { key: user.apiKey });
  expect(revoked.status).toBe(200);
  const answer = await uploadTo(url, 'late');
  expect(answer.status).toBe(403);
  expect(answer.body.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('revoked') });
  expect(await filesOf(user.id)).toEqual([]);
});

it('refuses a link whose link id was changed (the signature covers it)', async () => {
  const url = new URL(await linkFor(user.apiKey));
  url.searchParams.set('link', 'upl_forged');
  const answer = await uploadTo(url.toString(), 'forged');
  expect(answer.status).toBe(403);
});
