// Files in tasks: `{"$file": "fil_…"}` anywhere in a task's input or result names a file. The input may
// name the requester's own files; the result the files the agent uploaded for the task (or the task's
// input files). The hashes of input and result cover the files: each reference is hashed as
// `{"$file": id, "sha256": …}`. The links the agent gets are signed and expire with the task.
import type { Deps } from '../deps.js';
import type { SqlDb } from '../db/kysely.js';
import { invalid } from '../errors.js';
import { fileStore, type FileRole, type FileRow } from '../stores/file-store.js';
import { signedFileUrl } from '../files/signed-link.js';
import { evidenceHash } from './evidence.js';
import type { DeliveredFile } from '../delivery/payload.js';

export interface FileRef {
  id: string;
  // Where the reference sits, as a JSON path from the value's root (input.doc, input.pages[2]).
  path: string;
}

export const MAX_REFS = 100;

// The references in a JSON value, depth first.
export function fileRefs(value: unknown, root: string): FileRef[] {
  const refs: FileRef[] = [];
  const walk = (node: unknown, path: string) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${path}[${i}]`));
    const record = node as Record<string, unknown>;
    if ('$file' in record) {
      if (typeof record.$file !== 'string') throw invalid(path, `${path}.$file must be a file id (fil_…)`);
      refs.push({ id: record.$file, path });
      return;
    }
    for (const [key, child] of Object.entries(record)) walk(child, /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`);
  };
  walk(value, root);
  if (refs.length > MAX_REFS) throw invalid(root, `${root} refers to ${refs.length} files; at most ${MAX_REFS} are allowed`);
  return refs;
}

// The value as hashed: each reference carries its file's sha256.
function withHashes(value: unknown, files: Map<string, FileRow>): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => withHashes(item, files));
  const record = value as Record<string, unknown>;
  if (typeof record.$file === 'string') return { ...record, sha256: files.get(record.$file)?.sha256 ?? null };
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, withHashes(v, files)]));
}

export interface ResolvedFiles {
  files: FileRow[];
  // The evidence hash of the value with its files' hashes.
  hash: string | null;
}

export function taskFiles(deps: Deps) {
  const store = fileStore(deps.sql);

  // `on`: the transaction of the write the files take part in (the store's connection otherwise).
  async function resolve(value: unknown, root: string, allowed: (file: FileRow) => boolean, on?: SqlDb): Promise<ResolvedFiles> {
    const refs = fileRefs(value, root);
    if (refs.length === 0) return { files: [], hash: evidenceHash(value) };
    const rows = new Map((await store.byIds([...new Set(refs.map((r) => r.id))], on)).map((row) => [row.id, row]));
    for (const ref of refs) {
      const row = rows.get(ref.id);
      // A foreign file is answered like an unknown one: ids are not probed.
      if (!row || row.status !== 'stored' || !allowed(row)) throw invalid(ref.path, `${ref.path} refers to ${ref.id}, which is not a file of yours`);
    }
    return { files: [...rows.values()], hash: evidenceHash(withHashes(value, rows)) };
  }

  return {
    // A new task's input: only the requester's own files.
    forInput: (requesterId: string, input: unknown) => resolve(input, 'input', (file) => file.ownerId === requesterId && file.taskId === null),

    // An agent's result, read in the transaction that records it: files uploaded for this task, or the
    // task's own input files.
    async forResult(on: SqlDb, taskId: string, result: unknown): Promise<ResolvedFiles> {
      if (fileRefs(result, 'result').length === 0) return { files: [], hash: evidenceHash(result) };
      // Inside the task service's transaction: a second connection would wait behind it on the embedded
      // database.
      const inputs = new Set((await store.filesOfTask(taskId, on)).map((f) => f.id));
      return resolve(result, 'result', (file) => file.taskId === taskId || inputs.has(file.id), on);
    },

    // Records the task's files in the transaction that writes the task or its result.
    async link(t: SqlDb, taskId: string, role: FileRole, files: readonly FileRow[]): Promise<void> {
      if (files.length === 0) return;
      await store.link(taskId, role, files.map((f) => f.id), t);
    },

    // The files of a task with signed links that expire with the task; null when it has none, so a
    // delivery without files keeps the spec's fields exactly.
    async links(task: { id: string; expiresAt: Date; input?: unknown }, role: FileRole = 'input'): Promise<DeliveredFile[] | null> {
      // Most tasks have no files: their input says so without a query.
      if (role === 'input' && task.input !== undefined && fileRefs(task.input, 'input').length === 0) return null;
      const files = (await store.filesOfTask(task.id)).filter((f) => f.role === role);
      if (files.length === 0) return null;
      return files.map((f) => ({
        id: f.id,
        filename: f.filename,
        mediaType: f.mediaType,
        size: f.size,
        sha256: f.sha256 ?? '',
        url: signedFileUrl(deps.urls.base, deps.serverKey, f.id, task.expiresAt),
      }));
    },

    filesOf: (taskId: string) => store.filesOfTask(taskId),
  };
}

export type TaskFiles = ReturnType<typeof taskFiles>;

// The delivery payload with its files, when the task has any.
export function withFiles<P extends object>(payload: P, files: DeliveredFile[] | null): P {
  return files ? { ...payload, files } : payload;
}

// The value with each file reference replaced by its id, as an agent's inputSchema sees it: a file field
// is a string ("format": "binary" or "contentMediaType").
export function fileRefsAsIds(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(fileRefsAsIds);
  const record = value as Record<string, unknown>;
  if (typeof record.$file === 'string') return record.$file;
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fileRefsAsIds(v)]));
}
