// A file field of an agent's input form: a string field the agent's inputSchema marks as a file
// ("format": "binary", or a "contentMediaType"). The file is dropped or chosen, uploaded at once to
// POST /v1/files with XMLHttpRequest (whose upload events give the progress bar), and the field holds
// the file's id; the task is sent with {"$file": id} in its place (fileRefsIn).
import { useState, type DragEvent } from 'react';
import type { RJSFSchema, UiSchema, WidgetProps } from '@rjsf/utils';
import { formatBytes } from './FileList.js';
import './file-field.css';

interface Uploaded {
  id: string;
  filename: string;
  size: number;
  mediaType: string;
}

function upload(file: File, onProgress: (fraction: number) => void): Promise<Uploaded> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/v1/files?filename=${encodeURIComponent(file.name)}`);
    // Signed in by the session cookie, which the browser sends with this same-site request.
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: { data?: Uploaded; error?: { message?: string } } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: reported below
      }
      if (xhr.status === 201 && body.data) resolve(body.data);
      else reject(new Error(body.error?.message ?? `the upload failed (${xhr.status})`));
    };
    xhr.onerror = () => reject(new Error('the upload failed: the connection broke'));
    xhr.send(file);
  });
}

export function FileField({ id, value, onChange, disabled, readonly, label, schema }: WidgetProps) {
  const [progress, setProgress] = useState<number | null>(null);
  const [file, setFile] = useState<Uploaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const accept = typeof schema.contentMediaType === 'string' ? schema.contentMediaType : undefined;

  async function take(chosen: File | undefined) {
    if (!chosen || disabled || readonly) return;
    setError(null);
    setProgress(0);
    try {
      const done = await upload(chosen, setProgress);
      setFile(done);
      onChange(done.id);
    } catch (e) {
      setError((e as Error).message);
      onChange(undefined);
    } finally {
      setProgress(null);
    }
  }

  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void take(e.dataTransfer.files[0]);
  };

  return (
    <div
      className={`file-field${over ? ' over' : ''}`}
      data-testid={`file-field-${id}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <label htmlFor={id}>{file ? 'Replace the file' : `Drop a file here or choose one${label ? ` (${label})` : ''}`}</label>
      <input id={id} type="file" accept={accept} disabled={disabled || readonly} onChange={(e) => void take(e.target.files?.[0])} />
      {progress !== null && <progress max={1} value={progress} aria-label="upload progress" data-testid="upload-progress" />}
      {file && value === file.id && (
        <p className="small" data-testid="uploaded-file">
          {file.filename} · {formatBytes(file.size)} · {file.mediaType}
        </p>
      )}
      {error && <p className="error small">{error}</p>}
    </div>
  );
}

const isFileSchema = (schema: RJSFSchema) => schema.type === 'string' && (schema.format === 'binary' || typeof schema.contentMediaType === 'string');

// The uiSchema that puts FileField on every file field of `schema` (its properties, nested too).
export function fileWidgets(schema: RJSFSchema, base: UiSchema = {}): UiSchema {
  const walk = (node: RJSFSchema, ui: UiSchema): UiSchema => {
    if (isFileSchema(node)) return { ...ui, 'ui:widget': FileField };
    if (!node.properties) return ui;
    const out: UiSchema = { ...ui };
    for (const [key, child] of Object.entries(node.properties)) {
      if (typeof child === 'object') out[key] = walk(child as RJSFSchema, (ui[key] as UiSchema) ?? {});
    }
    return out;
  };
  return walk(schema, base);
}

// The input as sent: each file field's id becomes {"$file": id}.
export function fileRefsIn(value: unknown, schema: RJSFSchema): unknown {
  if (typeof value === 'string' && isFileSchema(schema) && /^fil_\w+$/.test(value)) return { $file: value };
  if (value && typeof value === 'object' && !Array.isArray(value) && schema.properties) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => {
        const child = schema.properties![k];
        return [k, typeof child === 'object' ? fileRefsIn(v, child as RJSFSchema) : v];
      }),
    );
  }
  return value;
}
