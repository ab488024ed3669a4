// What a phase of the ledger allocates, from V8's sampling heap profiler in the service's own process,
// objects later collected included (every allocation, not only what survives): the bytes per request, by
// the package or file that allocated them, by the allocating function, by the service's own function
// nearest the allocation (the code a change would touch), and by function with all it calls (the layers). Under --optimize-for-size the young generation is
// 1 MB, so every KB a request allocates is a share of a scavenge (docs/benchmarks.md).
import { Session } from 'node:inspector/promises';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  callFrame: CallFrame;
  selfSize: number;
  children: ProfileNode[];
}

export interface AllocationSummary {
  bytes: number;
  byOwner: [string, number][];
  byFunction: [string, number][];
  byServiceFunction: [string, number][];
  inclusive: [string, number][];
}

const session = new Session();
session.connect();

export async function startSampling(): Promise<void> {
  await session.post('HeapProfiler.enable');
  // 256 bytes between samples: a request's few tens of KB give ~100 samples each.
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
}

// The part of a script's URL that names it: a package (node_modules/@scope/name), a file of the service
// (src/…), node's own (node:…), or V8's (no URL: builtins such as JSON.parse's results).
function owner(url: string): string {
  if (!url) return '(V8 builtins)';
  if (url.startsWith('node:')) return 'node core';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const src = /\/(src|bench)\/(.+)$/.exec(url);
  return src ? `${src[1]}/${src[2]}` : url;
}

const isServiceFrame = (frame: CallFrame) => /\/src\//.test(frame.url) && !frame.url.includes('node_modules');
const frameName = (frame: CallFrame) => `${frame.functionName || '(anonymous)'} ${owner(frame.url)}:${frame.lineNumber + 1}`;

export async function stopSampling(top = 15): Promise<AllocationSummary> {
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: ProfileNode } };
  await session.post('HeapProfiler.disable');
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const byServiceFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, bytes: number) => map.set(key, (map.get(key) ?? 0) + bytes);
  let bytes = 0;
  // A builtin (JSON.parse, a regular expression's exec, a spread) is named with the function that called it.
  const named = (node: ProfileNode, parent: ProfileNode | null) =>
    node.callFrame.url || !parent ? frameName(node.callFrame) : `${frameName(node.callFrame)} ← ${frameName(parent.callFrame)}`;
  // Returns what `node` and its callees allocated; a function is counted once per path (recursion).
  const onPath = new Set<string>();
  const walk = (node: ProfileNode, parent: ProfileNode | null, nearestService: CallFrame | null): number => {
    const service = isServiceFrame(node.callFrame) ? node.callFrame : nearestService;
    if (node.selfSize) {
      bytes += node.selfSize;
      add(byOwner, owner(node.callFrame.url), node.selfSize);
      add(byFunction, named(node, parent), node.selfSize);
      add(byServiceFunction, service ? frameName(service) : '(no service frame)', node.selfSize);
    }
    const name = frameName(node.callFrame);
    const first = !onPath.has(name);
    if (first) onPath.add(name);
    let below = node.selfSize;
    for (const child of node.children) below += walk(child, node, service);
    if (first) {
      onPath.delete(name);
      if (node.callFrame.url) add(inclusive, name, below);
    }
    return below;
  };
  walk(profile.head, null, null);
  const largest = (map: Map<string, number>, count = top) => [...map].sort((a, b) => b[1] - a[1]).slice(0, count);
  return { bytes, byOwner: largest(byOwner), byFunction: largest(byFunction), byServiceFunction: largest(byServiceFunction), inclusive: largest(inclusive, 30) };
}
