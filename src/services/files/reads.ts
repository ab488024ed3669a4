// Who may read a file: its owner and the parties of the tasks that use it, or anyone with a signed link.
import { AppError, notFound } from '../../errors.js';
import { checkSignedLink } from '../../files/signed-link.js';
import type { FileRow } from '../../stores/file-store.js';
import type { Viewer } from '../accounts/index.js';
import { fileView, type FileContext, type FileView } from './context.js';

// The file to send to a signed-in caller.
export async function forViewer(ctx: FileContext, viewer: Viewer, id: string): Promise<FileRow> {
  const row = await ctx.store.byId(id);
  // Someone else's file is answered like a missing one: ids are not probed.
  if (!row || row.status !== 'stored') throw notFound('file');
  if (row.ownerId === viewer.id || (await ctx.store.isPartyOfTaskUsing(id, viewer.id))) return row;
  throw notFound('file');
}

export async function describe(ctx: FileContext, viewer: Viewer, id: string): Promise<FileView> {
  return fileView(await forViewer(ctx, viewer, id));
}

// The file to send for a signed link.
export async function forLink(ctx: FileContext, id: string, expires: string | null, sig: string | null): Promise<FileRow> {
  const check = checkSignedLink(ctx.deps.serverKey, id, expires, sig, ctx.deps.clock.now());
  if (check === 'expired') throw new AppError('FORBIDDEN', 'this link has expired');
  if (check === 'invalid') throw new AppError('FORBIDDEN', 'this link is not valid for this file');
  const row = await ctx.store.byId(id);
  if (!row || row.status !== 'stored') throw notFound('file');
  return row;
}
