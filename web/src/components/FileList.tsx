// A task's input or result files on the task page: name, size and type; images previewed, audio played
// in the page, the rest downloaded. The bytes come from GET /v1/files/{id} with the credential, as a
// blob URL (an <img> or <audio> cannot send the Authorization header).
import { useEffect, useState } from 'react';
import { gql } from '../api.js';
import { graphql } from '../generated/gql/index.js';

export interface TaskFile {
  id: string;
  filename: string;
  mediaType: string;
  size: number;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GiB`;
}

async function blobUrl(id: string): Promise<string> {
  const res = await fetch(`/v1/files/${encodeURIComponent(id)}`);
  if (!res.ok) throw new Error(`the file could not be read (${res.status})`);
  return URL.createObjectURL(await res.blob());
}

const PREVIEWED = /^(image\/(png|jpeg|gif|webp|avif)|audio\/)/;

function FileRow({ file }: { file: TaskFile }) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const previewed = PREVIEWED.test(file.mediaType);
  useEffect(() => {
    if (!previewed) return;
    let made: string | null = null;
    blobUrl(file.id).then((u) => setUrl((made = u)), (e: Error) => setError(e.message));
    return () => {
      if (made) URL.revokeObjectURL(made);
    };
  }, [file.id, previewed]);

  async function download() {
    try {
      const u = await blobUrl(file.id);
      const a = document.createElement('a');
      a.href = u;
      a.download = file.filename;
      a.click();
      setTimeout(() => URL.revokeObjectURL(u), 10_000);
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <li data-testid={`file-${file.id}`}>
      <button type="button" className="link" onClick={() => void download()}>
        {file.filename}
      </button>{' '}
      <span className="muted small">
        {formatBytes(file.size)} · {file.mediaType}
      </span>
      {url && file.mediaType.startsWith('image/') && <img src={url} alt={file.filename} className="file-preview" />}
      {url && file.mediaType.startsWith('audio/') && <audio src={url} controls className="file-preview" />}
      {error && <p className="error small">{error}</p>}
    </li>
  );
}

export function FileList({ title, files, testId }: { title: string; files: readonly TaskFile[] | null | undefined; testId?: string }) {
  if (!files?.length) return null;
  return (
    <section aria-label={title} data-testid={testId}>
      <h3>{title}</h3>
      <ul className="file-list">
        {files.map((f) => (
          <FileRow key={f.id} file={f} />
        ))}
      </ul>
    </section>
  );
}

const TaskFilesQuery = graphql(`
  query DashTaskFiles($id: ID!) {
    task(id: $id) {
      id
      inputFiles {
        id
        filename
        mediaType
        size
      }
      resultFiles {
        id
        filename
        mediaType
        size
      }
    }
  }
`);

// The task's files, read again when its status changes (a result brings result files).
export function TaskFiles({ taskId, status }: { taskId: string; status: string }) {
  const [files, setFiles] = useState<{ inputFiles: TaskFile[]; resultFiles: TaskFile[] } | null>(null);
  useEffect(() => {
    gql(TaskFilesQuery, { id: taskId }).then(
      (d) => setFiles(d.task),
      () => setFiles(null),
    );
  }, [taskId, status]);
  if (!files) return null;
  return (
    <>
      <FileList title="Input files" files={files.inputFiles} testId="input-files" />
      <FileList title="Result files" files={files.resultFiles} testId="result-files" />
    </>
  );
}
