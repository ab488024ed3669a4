// A BK-tree over words by typo distance: finds every word within a distance of a query word while
// comparing against a small part of the vocabulary. Optimal string alignment is not quite a metric (it
// can break the triangle inequality for words with overlapping swaps), so in rare cases a word is missed;
// the alternative metrics count a swap as two typos, which is worse for the common case.
import { typoDistance } from './edit-distance.js';

interface BkNode {
  word: string;
  children: Map<number, BkNode> | null;
}

export class BkTree {
  private root: BkNode | null = null;
  size = 0;

  add(word: string): void {
    if (this.root === null) {
      this.root = { word, children: null };
      this.size = 1;
      return;
    }
    let node = this.root;
    for (;;) {
      const d = typoDistance(word, node.word);
      if (d === 0) return;
      node.children ??= new Map();
      const child = node.children.get(d);
      if (!child) {
        node.children.set(d, { word, children: null });
        this.size++;
        return;
      }
      node = child;
    }
  }

  // Words within maxDistance of the word, with their distances.
  search(word: string, maxDistance: number): Array<{ word: string; distance: number }> {
    const found: Array<{ word: string; distance: number }> = [];
    if (this.root === null) return found;
    const stack: BkNode[] = [this.root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      // Children at distance d from this node can only be within range when |d - distance| <= max; the
      // exact distance is needed for that, so only the comparison against the node itself is bounded.
      const d = typoDistance(word, node.word, maxDistance + 64);
      if (d <= maxDistance) found.push({ word: node.word, distance: d });
      if (!node.children) continue;
      for (const [edge, child] of node.children) if (edge >= d - maxDistance && edge <= d + maxDistance) stack.push(child);
    }
    return found;
  }
}
