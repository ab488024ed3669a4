// The ways a file comes in besides a signed-in upload: a pre-signed link, an agent's task token, and a
// part of an A2A agent's artifact.
import { AppError, unauthenticated } from '../../errors.js';
import { newId } from '../../ids.js';
import { checkSignedUpload, signedUploadUrl } from '../../files/signed-link.js';
import { WITH_AGENT } from '../../lifecycle/task-lifecycle.js';
import { createUploadLink, liveUploadLinkUser, type UploadCredentialKind } from '../../stores/file-upload-link-store.js';
import { taskTokenWithOwner } from '../../stores/task-store.js';
import type { Viewer } from '../accounts/index.js';
import { isIssuedToken, tokenMatches } from '../task-token.js';
import { fileView, PartInFlightError, type FileContext, type FileView, type Upload } from './context.js';
import { receive } from './receive.js';

const UPLOAD_LINK_MS = 15 * 60 * 1000;

// A pre-signed upload (createFileUpload): the link names the user it uploads for, and is checked (with
// the credential that made it) before any of the body is read. It stores one file: a second upload by it
// is refused, and one that fails frees it again.
export async function signedUploader(ctx: FileContext, params: URLSearchParams): Promise<(upload: Upload) => Promise<FileView>> {
  const { deps } = ctx;
  const userId = params.get('uploader');
  const linkId = params.get('link');
  const check = checkSignedUpload(deps.serverKey, userId, linkId, params.get('expires'), params.get('sig'), deps.clock.now());
  if (check === 'expired') throw new AppError('FORBIDDEN', 'this upload link has expired');
  if (check === 'invalid') throw new AppError('FORBIDDEN', 'this upload link is not valid');
  if ((await liveUploadLinkUser(deps.sql, linkId!, deps.clock.now())) !== userId) {
    throw new AppError('FORBIDDEN', 'this upload link no longer works: the credential that made it was revoked or has expired');
  }
  return (upload) => receive(ctx, userId!, null, upload, { uploadLinkId: linkId! });
}

// A link to upload one file as the viewer, for 15 minutes, while the credential it was made with lives.
export async function uploadLink(
  ctx: FileContext,
  viewer: Viewer,
  credential: { kind: UploadCredentialKind; id: string | null },
): Promise<{ url: string; expiresAt: Date }> {
  const { deps } = ctx;
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + UPLOAD_LINK_MS);
  const id = newId('upl');
  await createUploadLink(deps.sql, { id, userId: viewer.id, credentialKind: credential.kind, credentialId: credential.id, expiresAt, createdAt: now });
  return { url: signedUploadUrl(deps.urls.base, deps.serverKey, viewer.id, id, expiresAt), expiresAt };
}

// An agent's result file, authenticated by its task token: kept for that task, counted against the quota
// of the agent's owner. The token is checked before any of the body is read: `receive` takes it.
export async function taskUploader(ctx: FileContext, taskId: string, token: string): Promise<(upload: Upload) => Promise<FileView>> {
  const { deps } = ctx;
  const task = await taskTokenWithOwner(deps.sql, taskId);
  // A finished task's own token is told apart from a wrong one: its agent hears 409 (the task is over).
  if (!task || !(tokenMatches(token, task.tokenHash) || isIssuedToken(deps.serverKey, { id: taskId, tokenNonce: task.tokenNonce }, token))) {
    throw unauthenticated('the task token is not valid for this task');
  }
  if (!WITH_AGENT.includes(task.status)) {
    throw new AppError('CONFLICT', `the task is ${task.status}; result files are added while the agent works on it`, { details: { status: task.status } });
  }
  return (upload) => receive(ctx, task.ownerId, taskId, upload);
}

// A file an A2A agent returned in an artifact part (a2a-deliveries/artifact-files.ts): kept for the task like a
// result upload, counted against the quota of the agent's owner, once per task and part. A part kept
// already is answered as it is, without fetching anything; one being stored right now (another run of the
// job) is a PartInFlightError, for the job to come back to.
export async function keepArtifactPart(
  ctx: FileContext,
  ownerId: string,
  taskId: string,
  artifactPart: string,
  fetchUpload: () => Promise<Upload>,
): Promise<FileView> {
  const existing = await ctx.store.byArtifactPart(taskId, artifactPart);
  if (existing?.status === 'stored') return fileView(existing);
  if (existing) throw new PartInFlightError(artifactPart);
  return receive(ctx, ownerId, taskId, await fetchUpload(), { artifactPart });
}
