// The file_upload_links table: pre-signed upload links (createFileUpload) and the credential each was
// made with. A link stores one file at most (files.upload_link_id is unique, see files/store.ts), and
// none once its credential is revoked or expired.
import type { SqlDb } from '../db/kysely.js';

export type UploadCredentialKind = 'apiKey' | 'session' | 'accessToken';

export interface UploadLinkRow {
  id: string;
  userId: string;
  credentialKind: UploadCredentialKind;
  // Null for an external JWT: nothing here can revoke it, so its link lives until it expires.
  credentialId: string | null;
  expiresAt: Date;
  createdAt: Date;
}

// uploadLink.create
export async function createUploadLink(db: SqlDb, row: UploadLinkRow): Promise<void> {
  await db.insertInto('fileUploadLinks').values(row).execute();
}

// uploadLink.findLive: the link's user, when it has not expired and the credential that made it still
// works (not revoked, not expired); null otherwise.
export async function liveUploadLinkUser(db: SqlDb, id: string, now: Date): Promise<string | null> {
  const row = await db
    .selectFrom('fileUploadLinks as l')
    .select('l.userId')
    .where('l.id', '=', id)
    .where('l.expiresAt', '>', now)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('l.credentialKind', '=', 'apiKey'),
          eb.exists(
            eb
              .selectFrom('apiKeys as k')
              .select('k.id')
              .whereRef('k.id', '=', 'l.credentialId')
              .where('k.revokedAt', 'is', null)
              .where((k) => k.or([k('k.expiresAt', 'is', null), k('k.expiresAt', '>', now)])),
          ),
        ]),
        eb.and([
          eb('l.credentialKind', '=', 'session'),
          eb.exists(eb.selectFrom('sessions as s').select('s.id').whereRef('s.id', '=', 'l.credentialId').where('s.revokedAt', 'is', null).where('s.expiresAt', '>', now)),
        ]),
        eb.and([
          eb('l.credentialKind', '=', 'accessToken'),
          eb.or([eb('l.credentialId', 'is', null), eb.exists(eb.selectFrom('oauthGrants as g').select('g.id').whereRef('g.id', '=', 'l.credentialId').where('g.revokedAt', 'is', null))]),
        ]),
      ]),
    )
    .executeTakeFirst();
  return row?.userId ?? null;
}

// uploadLink.removeExpired (the files sweep).
export async function removeExpiredUploadLinks(db: SqlDb, before: Date): Promise<number> {
  const result = await db.deleteFrom('fileUploadLinks').where('expiresAt', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
