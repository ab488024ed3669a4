// The operations of the file routes (rest/file-routes.ts, docs/files.md). They stream bytes, so they are
// outside the GraphQL-backed table and their operations are written out here.
import type { OpenApiOperation } from '../../http/route.js';

const FILE: Record<string, unknown> = {
  type: 'object',
  properties: {
    id: { type: 'string', pattern: '^fil_', description: 'The id a task refers to as {"$file": id}' },
    filename: { type: 'string', maxLength: 200, description: 'The cleaned file name' },
    mediaType: { type: 'string', description: 'type/subtype, from the Content-Type (or the form part’s)' },
    size: { type: 'integer', minimum: 0 },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    createdAt: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'filename', 'mediaType', 'size', 'sha256', 'createdAt'],
  additionalProperties: false,
};

const BYTES = { type: 'string', format: 'binary' };

const error = (status: string) => ({ $ref: `#/components/responses/Error${status}` });
const errorWith = (description: string, details: Record<string, unknown>, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: {
    'application/json': {
      schema: {
        allOf: [
          { $ref: '#/components/schemas/Error' },
          { type: 'object', properties: { error: { type: 'object', properties: details } } },
        ],
      },
    },
  },
});

const TOO_LARGE = errorWith(
  'The file is larger than FILE_MAX_BYTES (`maxBytes`), or does not fit in the storage quota of its owner (`quotaBytes`, `usedBytes`) (PAYLOAD_TOO_LARGE)',
  { maxBytes: { type: 'integer' }, quotaBytes: { type: 'integer' }, usedBytes: { type: 'integer' } },
);

const UPLOADED = {
  description: 'Stored: streamed to the storage and hashed on the way',
  content: { 'application/json': { schema: { type: 'object', properties: { data: FILE }, required: ['data'], additionalProperties: false } } },
};

// The body of an upload: the raw bytes with their Content-Type, or a form whose first file part is taken.
const UPLOAD_BODY = {
  required: true,
  content: {
    'application/octet-stream': { schema: { ...BYTES, description: 'The raw bytes; any Content-Type but multipart/form-data is taken as the file’s media type' } },
    'multipart/form-data': {
      schema: { type: 'object', properties: { file: BYTES }, required: ['file'], description: 'A form; its first file part is the file (its name and type are the part’s)' },
    },
  },
};

const filenameParameter = { name: 'filename', in: 'query', required: false, schema: { type: 'string', maxLength: 1000 }, description: 'The file’s name (cleaned; a form part’s own name otherwise)' };

const bytesAnswer = (description: string, extra: Record<string, unknown> = {}) => ({
  description,
  headers: {
    'Content-Disposition': { schema: { type: 'string' }, description: '`inline` for images, audio, video and plain text; `attachment` for everything else' },
    'Content-Length': { schema: { type: 'integer' } },
    'X-Content-Type-Options': { schema: { type: 'string', const: 'nosniff' } },
    ETag: { schema: { type: 'string' }, description: 'The SHA-256 of the whole file, quoted' },
    'Accept-Ranges': { schema: { type: 'string', const: 'bytes' } },
    ...extra,
  },
  content: { '*/*': { schema: BYTES } },
});

export const fileOperations: Record<'upload' | 'download' | 'resultUpload', OpenApiOperation> = {
  upload: {
    operationId: 'UploadFile',
    summary: 'Upload a file (API key or session; or a pre-signed link from createFileUpload, without credentials)',
    tags: ['files'],
    // The pre-signed form carries its credential in the query (uploader, expires, sig).
    security: [{ bearer: [] }, {}],
    parameters: [
      filenameParameter,
      { name: 'uploader', in: 'query', required: false, schema: { type: 'string' }, description: 'Pre-signed upload: the user it uploads for' },
      { name: 'expires', in: 'query', required: false, schema: { type: 'string', pattern: '^\\d{1,12}$' }, description: 'Pre-signed upload: when the link expires (Unix seconds)' },
      { name: 'sig', in: 'query', required: false, schema: { type: 'string' }, description: 'Pre-signed upload: the link’s signature' },
    ],
    requestBody: UPLOAD_BODY,
    responses: {
      '201': UPLOADED,
      '400': error('400'),
      '401': error('401'),
      '403': errorWith('The pre-signed link expired or is not valid (FORBIDDEN); the API key lacks tasks:write (INSUFFICIENT_SCOPE)', {}),
      '413': TOO_LARGE,
      '429': error('429'),
      default: { $ref: '#/components/responses/Error' },
    },
  },
  download: {
    operationId: 'DownloadFile',
    summary: 'Download a file (its owner and the parties of a task using it; or a signed link, without credentials)',
    tags: ['files'],
    // A signed link (delivery payloads, A2A url parts) carries its credential in the query.
    security: [{ bearer: [] }, {}],
    parameters: [
      { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^fil_' } },
      { name: 'expires', in: 'query', required: false, schema: { type: 'string', pattern: '^\\d{1,12}$' }, description: 'Signed link: when it expires (Unix seconds)' },
      { name: 'sig', in: 'query', required: false, schema: { type: 'string' }, description: 'Signed link: its signature, bound to this file and expiry' },
      { name: 'Range', in: 'header', required: false, schema: { type: 'string', examples: ['bytes=0-1023', 'bytes=-500'] }, description: 'One byte range; several ranges get the whole file' },
    ],
    responses: {
      '200': bytesAnswer('The file, with its stored media type'),
      '206': bytesAnswer('The requested range', { 'Content-Range': { schema: { type: 'string' }, description: 'bytes start-end/size' } }),
      '401': error('401'),
      '403': errorWith('The signed link expired or is not valid for this file (FORBIDDEN)', {}),
      '404': errorWith('No such file, or not one the caller may read (NOT_FOUND)', {}),
      '416': errorWith('The range is outside the file (RANGE_NOT_SATISFIABLE)', {}, { 'Content-Range': { schema: { type: 'string' }, description: 'bytes */size' } }),
      '429': error('429'),
      default: { $ref: '#/components/responses/Error' },
    },
  },
  resultUpload: {
    operationId: 'UploadResultFile',
    summary: 'An agent adds a result file to its task, authenticated by the task token',
    tags: ['files'],
    security: [{ taskToken: [] }, { bearer: [] }],
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^tsk_' } }, filenameParameter],
    requestBody: UPLOAD_BODY,
    responses: {
      '201': UPLOADED,
      '400': error('400'),
      '401': errorWith('No task token, or not this task’s (UNAUTHENTICATED)', {}),
      '409': errorWith('The task is not being worked on (CONFLICT; `status` says where it is)', { status: { type: 'string' } }),
      '413': TOO_LARGE,
      '429': error('429'),
      default: { $ref: '#/components/responses/Error' },
    },
  },
};
