// Files across A2A (docs/files.md). Toward us: a SendMessage's file parts become files of the caller and
// the new task's input refers to them (input.files). Back: a task's result files go out as url parts of
// a "files" artifact.
import { Readable } from 'node:stream';
import type { Message, Part } from '@a2a-js/sdk';
import { invalid } from '../errors.js';
import type { Context } from '../schema/context.js';
import { fileRefs } from '../services/task-files.js';

export interface TaskFileLink {
  id: string;
  url: string;
  filename: string;
  mediaType: string;
}

const OWN_FILE = /\/v1\/files\/(fil_[A-Za-z0-9]{1,60})(?:[?#].*)?$/;

// Stores the raw file parts as the caller's files and names url parts of files on this service; the task
// body's input gets {files: [{"$file": id}, …]} in the order of the parts.
export async function filePartsIntoInput(message: Message, body: Record<string, unknown>, context: Context): Promise<void> {
  const parts = message.parts.filter((p: Part) => p.content?.$case === 'raw' || p.content?.$case === 'url');
  if (parts.length === 0 || !context.viewer) return;
  const base = context.services.deps.urls.base;
  const refs: Array<{ $file: string }> = [];
  for (const [index, part] of parts.entries()) {
    const content = part.content!;
    if (content.$case === 'raw') {
      const bytes = Buffer.from(content.value);
      const file = await context.services.files.upload(context.viewer, {
        filename: part.filename || `part-${index + 1}`,
        mediaType: part.mediaType,
        declaredSize: bytes.length,
        body: Readable.from([bytes]),
      });
      refs.push({ $file: file.id });
    } else if (content.$case === 'url') {
      const own = content.value.startsWith(`${base}/`) ? OWN_FILE.exec(content.value) : null;
      // Fetching any URL a caller names would let it make this service call into private networks.
      if (!own) throw invalid('message.parts', `a url file part must name a file on this service (${base}/v1/files/fil_…); send other files as raw bytes`);
      refs.push({ $file: own[1]! });
    }
  }
  const input = typeof body.input === 'object' && body.input !== null && !Array.isArray(body.input) ? (body.input as Record<string, unknown>) : {};
  body.input = { ...input, files: refs };
}

// The result files of the task(s) in a /v1 answer, as links the A2A mapping turns into url parts.
export async function withResultFileLinks(body: Record<string, unknown>, context: Context): Promise<void> {
  const tasks = (Array.isArray(body.data) ? body.data : [body.data]).filter((t): t is Record<string, unknown> => typeof t === 'object' && t !== null);
  for (const task of tasks) {
    let ids: string[];
    try {
      ids = [...new Set(fileRefs(task.result ?? null, 'result').map((r) => r.id))];
    } catch {
      continue;
    }
    if (ids.length === 0) continue;
    const rows = await context.services.files.store.byIds(ids);
    const base = context.services.deps.urls.base;
    const links: TaskFileLink[] = rows.map((f) => ({ id: f.id, url: `${base}/v1/files/${f.id}`, filename: f.filename, mediaType: f.mediaType }));
    Object.defineProperty(task, 'resultFileLinks', { value: links, enumerable: false });
  }
}

export const urlPart = (link: TaskFileLink): Part => ({ content: { $case: 'url', value: link.url }, metadata: undefined, filename: link.filename, mediaType: link.mediaType });
