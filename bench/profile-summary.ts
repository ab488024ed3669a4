// Summarises a V8 CPU profile (from npm run bench:search:http -- --profile DIR): self time by package or
// project directory, and the busiest functions, so the report can say where a search's time goes.
//   npx tsx bench/profile-summary.ts DIR/file.cpuprofile
import { readFile } from 'node:fs/promises';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const profile = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const area = (url: string) => {
  if (!url) return '(native, gc, idle)';
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return m[1]!;
  const src = url.match(/\/(src\/[^/]+(?:\/[^/]+)?)\//);
  if (src) return src[1]!;
  return url.startsWith('node:') ? 'node core' : url.replace(/^.*\/work\/wt\/[^/]+\//, '');
};
const areas = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, t] of self) {
  const node = byId.get(id)!;
  const a = node.callFrame.functionName === '(idle)' ? '(idle)' : area(node.callFrame.url);
  areas.set(a, (areas.get(a) ?? 0) + t);
  const f = `${node.callFrame.functionName || '(anonymous)'} ${area(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
  functions.set(f, (functions.get(f) ?? 0) + t);
}
const top = (m: Map<string, number>, n: number) =>
  [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, t]) => `  ${((100 * t) / total).toFixed(1).padStart(5)} %  ${k}`).join('\n');
console.log(`self time by area (${(total / 1e6).toFixed(1)} s sampled):\n${top(areas, 15)}\n\nbusiest functions:\n${top(functions, 20)}`);
