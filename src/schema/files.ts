// Files in GraphQL (docs/files.md): the File type, a task's input and result files, and a pre-signed
// upload link (the bytes go to POST /v1/files, streamed, rather than through a GraphQL request).
import { builder } from './builder.js';
import { TaskRef } from './tasks.js';
import { taskFiles } from '../services/task-files.js';
import type { FileRole, FileRow } from '../stores/file-store.js';
import type { Context } from './context.js';

export const FileObject = builder.objectRef<FileRow>('File').implement({
  description: 'A file a user uploaded; its bytes are at GET /v1/files/{id}',
  fields: (t) => ({
    id: t.exposeID('id'),
    filename: t.exposeString('filename'),
    mediaType: t.exposeString('mediaType'),
    size: t.float({ description: 'Bytes', resolve: (file) => file.size }),
    sha256: t.string({ description: 'SHA-256 (hex) of the bytes', resolve: (file) => file.sha256 ?? '' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    url: t.string({ description: 'Where to download it (with the API key or session)', resolve: (file, _args, ctx) => `${ctx.services.deps.urls.base}/v1/files/${file.id}` }),
  }),
});

const filesOf = async (ctx: Context, taskId: string, role: FileRole) =>
  (await taskFiles(ctx.services.deps).filesOf(taskId)).filter((file) => file.role === role);

builder.objectFields(TaskRef, (t) => ({
  inputFiles: t.field({ type: [FileObject], description: 'The files the input refers to ({"$file": id})', resolve: (task, _args, ctx) => filesOf(ctx, task.id, 'input') }),
  resultFiles: t.field({ type: [FileObject], description: 'The files the result refers to', resolve: (task, _args, ctx) => filesOf(ctx, task.id, 'result') }),
}));

const FileUpload = builder.objectRef<{ url: string; expiresAt: Date }>('FileUpload').implement({
  description: 'A link to POST one file to (raw body with ?filename=… or multipart/form-data), without credentials',
  fields: (t) => ({
    url: t.exposeString('url'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

builder.mutationFields((t) => ({
  createFileUpload: t.field({
    type: FileUpload,
    description: 'A pre-signed upload link for the caller, valid 15 minutes; answers like POST /v1/files',
    authScopes: { scope: 'tasks:write' },
    // The link works while the credential that asked for it does; one with none recorded (a context made
    // by the service itself) is treated as an external token's: it lives until the link expires.
    resolve: (_root, _args, ctx) => ctx.services.files.uploadLink(ctx.viewer!, ctx.credential ?? { kind: 'accessToken', id: null }),
  }),
}));

builder.queryFields((t) => ({
  file: t.field({
    type: FileObject,
    description: "A file of the caller's, or of a task the caller is a party of",
    authScopes: { scope: 'tasks:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.files.forViewer(ctx.viewer!, String(args.id)),
  }),
}));
