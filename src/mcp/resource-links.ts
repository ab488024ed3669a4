// MCP: the files a task's input and result refer to, as resource links after the tool's JSON answer, so
// a host can show or fetch them (GET /v1/files/{id} with the same Bearer credential).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '../schema/context.js';
import { fileRefs } from '../services/task-files.js';

export async function withResourceLinks(result: CallToolResult, context: Context): Promise<CallToolResult> {
  const data = (result.structuredContent as { data?: { input?: unknown; result?: unknown } } | undefined)?.data;
  if (result.isError || !data || typeof data !== 'object') return result;
  let ids: string[];
  try {
    ids = [...new Set([...fileRefs(data.input ?? null, 'input'), ...fileRefs(data.result ?? null, 'result')].map((ref) => ref.id))];
  } catch {
    return result;
  }
  if (ids.length === 0) return result;
  const files = await context.services.files.store.byIds(ids);
  const base = context.services.deps.urls.base;
  const links = files
    .filter((file) => file.status === 'stored')
    .map((file) => ({
      type: 'resource_link' as const,
      uri: `${base}/v1/files/${file.id}`,
      name: file.filename,
      mimeType: file.mediaType,
      description: `${file.size} bytes, sha256 ${file.sha256}`,
    }));
  return { ...result, content: [...result.content, ...links] };
}
