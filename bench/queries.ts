// Queries a person would type to find one particular agent: its brand and what it is, with typos (one per
// word, two in long words), and sometimes the last word cut short as if still being typed.
import { pick, type BenchAgent, type Random } from './vocabulary.js';

export interface BenchQuery {
  q: string;
  targetId: string;
  kind: 'name' | 'capability' | 'prefix';
}

const KEYBOARD_NEIGHBOURS: Record<string, string> = {
  a: 'sqz', b: 'vgn', c: 'xvd', d: 'sfe', e: 'wrd', f: 'dgr', g: 'fht', h: 'gjy', i: 'uok', j: 'hku', k: 'jli', l: 'kop', m: 'nj',
  n: 'bmh', o: 'ipl', p: 'ol', q: 'wa', r: 'eft', s: 'adw', t: 'rgy', u: 'yij', v: 'cbf', w: 'qes', x: 'zcs', y: 'tuh', z: 'xa',
};

// One typo away from the word: a neighbouring key, a dropped or doubled letter, or two letters swapped.
// The first letter is left alone: people rarely miss it, and neither engine is built for that case.
export function typo(word: string, random: Random): string {
  if (word.length < 3) return word;
  const at = 1 + Math.floor(random() * (word.length - 1));
  const ch = word[at]!;
  switch (Math.floor(random() * 4)) {
    case 0:
      return word.slice(0, at) + pick(random, [...(KEYBOARD_NEIGHBOURS[ch] ?? 'e')]) + word.slice(at + 1);
    case 1:
      return word.slice(0, at) + word.slice(at + 1);
    case 2:
      return word.slice(0, at) + ch + word.slice(at);
    default:
      return at < word.length - 1 ? word.slice(0, at) + word[at + 1] + ch + word.slice(at + 2) : word.slice(0, at - 1) + ch + word[at - 1];
  }
}

// Words of four letters or more get one typo, words of eight or more sometimes a second.
export function misspell(word: string, random: Random): string {
  if (word.length < 4) return word;
  const once = typo(word, random);
  return word.length >= 8 && random() < 0.5 ? typo(once, random) : once;
}

export function generateQueries(agents: BenchAgent[], count: number, random: Random): BenchQuery[] {
  const queries: BenchQuery[] = [];
  for (let i = 0; i < count; i++) {
    const target = pick(random, agents);
    const brand = misspell(target.brand.toLowerCase(), random);
    const noun = target.noun.toLowerCase();
    const roll = random();
    if (roll < 0.4) {
      queries.push({ q: `${brand} ${misspell(noun, random)}`, targetId: target.id, kind: 'name' });
    } else if (roll < 0.7) {
      const capability = pick(random, target.capabilities).split('-')[0]!;
      queries.push({ q: `${brand} ${misspell(capability, random)}`, targetId: target.id, kind: 'capability' });
    } else {
      const cut = Math.max(4, Math.ceil(noun.length * 0.6));
      queries.push({ q: `${brand} ${noun.slice(0, cut)}`, targetId: target.id, kind: 'prefix' });
    }
  }
  return queries;
}
