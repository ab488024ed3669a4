// Finds the route of a request: the first whose template matches the path and whose method matches (HEAD
// as GET for routes that answer it) and that claims the request; else the methods the path has.
import type { IncomingMessage } from 'node:http';
import { pathPattern, type HttpRoute } from './route.js';

export type RouteMatch =
  | { kind: 'route'; route: HttpRoute; params: Record<string, string> }
  | { kind: 'method'; template: string; allow: string }
  | { kind: 'none' };

export function matchRoute(routes: HttpRoute[]): (req: IncomingMessage, url: URL) => RouteMatch {
  const compiled = routes.map((route) => ({ route, ...pathPattern(route.path) }));
  return (req, url) => {
    const path = url.pathname;
    const method = req.method;
    const onPath: typeof compiled = [];
    for (const c of compiled) {
      const m = c.pattern.exec(path);
      if (!m) continue;
      onPath.push(c);
      const answers = c.route.method === method || (method === 'HEAD' && c.route.head === true);
      if (!answers || (c.route.claims && !c.route.claims(req, url))) continue;
      return { kind: 'route', route: c.route, params: Object.fromEntries(c.names.map((n, i) => [n, m[i + 1]!])) };
    }
    if (onPath.length === 0) return { kind: 'none' };
    return { kind: 'method', template: onPath[0]!.route.path, allow: [...new Set(onPath.map((c) => c.route.method))].join(', ') };
  };
}
