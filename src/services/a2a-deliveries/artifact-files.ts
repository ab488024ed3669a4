// The file parts of an A2A agent's artifacts, kept as files of our task (docs/files.md): inline bytes
// (`raw`) and the files `url` parts name are stored like a webhook agent's result uploads (size limit,
// quota of the agent's owner, SHA-256), and each part becomes {"$file": id, filename, mediaType}, so the
// result refers to them and the task's result files are them. A url is the agent's to choose, so it is
// fetched as its endpoint is called: the address policy inside the lookup, no redirects, the delivery
// timeout; the size is bounded while the bytes stream into storage. This runs in the job
// a2a.keep-artifacts, never in the request that brought the agent's report.
import { Readable } from 'node:stream';
import { AppError } from '../../errors.js';
import { PartInFlightError, type FileView, type Upload } from '../files/index.js';
import { MAX_REFS } from '../task-files.js';
import { guardedDownload } from '../../delivery/guarded-request.js';
import type { ResolveHost } from '../../delivery/url-guard.js';

// Why the artifacts could not be kept, in words for the requester (the task fails with it).
export class ArtifactFileError extends Error {}

export interface ArtifactFileOptions {
  // Stores the file of one part (`where`: artifacts[a].parts[p]) for the task, fetching it only when the
  // part is not kept already.
  keep(where: string, fetchUpload: () => Promise<Upload>): Promise<FileView>;
  timeoutMs: number;
  allowPrivate: boolean;
  resolve?: ResolveHost;
}

type WirePart = Record<string, unknown> & { raw?: unknown; url?: unknown; filename?: unknown; mediaType?: unknown };

const isFilePart = (part: unknown): part is WirePart =>
  typeof part === 'object' && part !== null && (typeof (part as WirePart).raw === 'string' || typeof (part as WirePart).url === 'string');

// Whether any part of the artifacts is a file to keep (else the result is taken as it is, at once).
export const hasFileParts = (artifacts: unknown[]): boolean =>
  artifacts.some((a) => {
    const parts = (a as { parts?: unknown } | null)?.parts;
    return Array.isArray(parts) && parts.some(isFilePart);
  });

const text = (value: unknown) => (typeof value === 'string' ? value : '');

async function bodyOf(part: WirePart, opts: ArtifactFileOptions): Promise<Pick<Upload, 'body' | 'declaredSize' | 'mediaType'>> {
  if (typeof part.raw === 'string') {
    const bytes = Buffer.from(part.raw, 'base64');
    return { body: Readable.from([bytes]), declaredSize: bytes.length, mediaType: text(part.mediaType) };
  }
  const answer = await guardedDownload({ url: part.url as string, timeoutMs: opts.timeoutMs, allowPrivate: opts.allowPrivate, resolve: opts.resolve });
  if (answer.kind === 'error') throw new ArtifactFileError(answer.error);
  if (answer.status !== 200) {
    answer.body.destroy();
    throw new ArtifactFileError(`the agent's server answered ${answer.status}`);
  }
  const length = answer.headers['content-length'];
  return {
    body: answer.body,
    declaredSize: length && /^\d+$/.test(length) ? Number(length) : null,
    mediaType: text(part.mediaType) || answer.headers['content-type'] || '',
  };
}

// The artifacts with each file part replaced by a reference to the file kept from it, and the ids kept
// (so a caller can remove them if the result is not taken). Throws ArtifactFileError when a part cannot
// be kept; the files kept before it are removed by `discard`.
export async function keepArtifactFiles(
  artifacts: unknown[],
  opts: ArtifactFileOptions & { discard(id: string): Promise<void> },
): Promise<{ artifacts: unknown[]; kept: string[] }> {
  const count = artifacts.reduce<number>((n, a) => n + ((a as { parts?: unknown[] }).parts ?? []).filter(isFilePart).length, 0);
  if (count === 0) return { artifacts, kept: [] };
  if (count > MAX_REFS) throw new ArtifactFileError(`the agent's artifacts have ${count} file parts; at most ${MAX_REFS} are kept`);
  const kept: string[] = [];
  const one = async (part: WirePart, where: string): Promise<Record<string, unknown>> => {
    const filename = text(part.filename) || where;
    try {
      const file = await opts.keep(where, async () => ({ filename, ...(await bodyOf(part, opts)) }));
      kept.push(file.id);
      const { raw: _raw, url: _url, ...rest } = part;
      return { ...rest, $file: file.id, filename: file.filename, mediaType: file.mediaType };
    } catch (error) {
      // Another run is storing this part: not the agent's fault, the job comes back.
      if (error instanceof PartInFlightError) throw error;
      const why = error instanceof ArtifactFileError || error instanceof AppError ? error.message : error instanceof Error ? error.message : String(error);
      throw new ArtifactFileError(`the agent's file ${JSON.stringify(filename)} (${where}) could not be kept: ${why}`);
    }
  };
  try {
    const out: unknown[] = [];
    for (const [a, artifact] of artifacts.entries()) {
      const record = artifact as { parts?: unknown[] };
      if (!Array.isArray(record.parts)) {
        out.push(artifact);
        continue;
      }
      const parts: unknown[] = [];
      // One at a time: each download holds a connection and a storage upload.
      for (const [p, part] of record.parts.entries()) parts.push(isFilePart(part) ? await one(part, `artifacts[${a}].parts[${p}]`) : part);
      out.push({ ...record, parts });
    }
    return { artifacts: out, kept };
  } catch (error) {
    // The task fails with the reason: what was kept for it is of no use. (Parts another run is storing
    // stay: that run, or the next, completes the task with them.)
    if (error instanceof ArtifactFileError) for (const id of kept) await opts.discard(id);
    throw error;
  }
}
