// The request's own parameters (query, variables, extensions, operationName) as a client sends them over
// HTTP: a `variables` or `extensions` that is not a JSON object is the client's mistake, answered 400
// INVALID_INPUT naming the parameter. yoga's parser would throw a bare SyntaxError for a GET's (and a
// form POST's) malformed JSON, which became a masked INTERNAL answered 200.
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../errors.js';

const JSON_PARAMETERS = ['variables', 'extensions'] as const;

const badParameter = (field: string, message: string) =>
  new AppError('INVALID_INPUT', message, { field, details: { http: { status: 400 } } });

// The first of variables/extensions in these search parameters that is not a JSON object (or absent).
function malformedSearchParameter(params: URLSearchParams): AppError | null {
  for (const field of JSON_PARAMETERS) {
    const text = params.get(field);
    if (!text) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return badParameter(field, `${field} is not valid JSON`);
    }
    if (value !== null && (typeof value !== 'object' || Array.isArray(value))) return badParameter(field, `${field} must be a JSON object`);
  }
  return null;
}

export function requestParamsPlugin(): Plugin {
  return {
    onRequestParse({ request, url, requestParser, setRequestParser }) {
      if (!requestParser) return;
      setRequestParser(async (req) => {
        if (request.method === 'GET') {
          const problem = malformedSearchParameter(url.searchParams);
          if (problem) throw problem;
        }
        try {
          return await requestParser(req);
        } catch (error) {
          // A form-encoded POST carries the same parameters in its body.
          if (error instanceof SyntaxError) throw badParameter('body', 'the request parameters are not valid JSON');
          throw error;
        }
      });
    },
    onParams({ params }) {
      for (const field of JSON_PARAMETERS) {
        const value = params[field];
        if (value != null && (typeof value !== 'object' || Array.isArray(value))) throw badParameter(field, `${field} must be a JSON object`);
      }
    },
  };
}
