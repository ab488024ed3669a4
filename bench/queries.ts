// The labelled queries: for each kind, queries built from the generated registry, each with the set of
// agents that answer it (known by construction, never by asking an engine). Typos are made so that the
// typed word is not itself a word of the registry: a typo that spells another agent's word cannot be told
// from a search for that word, by any engine.
import { fold } from '../src/search/text/words.js';
import { DOMAINS, pick, type BenchAgent, type Random } from './vocabulary.js';

export const QUERY_KINDS = [
  'exact',
  'partial',
  'natural language',
  'capability',
  'synonym',
  'plural',
  'one typo',
  'two typos',
  'short',
  'short with typo',
  'prefix',
  'accent',
  'nonsense',
  // Last so that adding it left every other kind's queries as they were (one seeded sequence).
  'as typed',
  'prefix is a word',
] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

export interface BenchQuery {
  kind: QueryKind;
  q: string;
  // Agents that answer the query; empty for nonsense, which should answer nothing.
  relevant: Set<string>;
}

const KEYBOARD_NEIGHBOURS: Record<string, string> = {
  a: 'sqz', b: 'vgn', c: 'xvd', d: 'sfe', e: 'wrd', f: 'dgr', g: 'fht', h: 'gjy', i: 'uok', j: 'hku', k: 'jli', l: 'kop', m: 'nj',
  n: 'bmh', o: 'ipl', p: 'ol', q: 'wa', r: 'eft', s: 'adw', t: 'rgy', u: 'yij', v: 'cbf', w: 'qes', x: 'zcs', y: 'tuh', z: 'xa',
};

// One typo: a neighbouring key, a dropped or doubled letter, or two neighbouring letters swapped. The
// first letter is left alone: people rarely miss it.
function typo(word: string, random: Random): string {
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

// A swap or a substitution inside a three-letter word ("sql" → "slq", "pdf" → "pfd").
function shortTypo(word: string, random: Random): string {
  if (random() < 0.5) return word[0]! + word[2]! + word[1]!;
  const at = 1 + Math.floor(random() * 2);
  return word.slice(0, at) + pick(random, [...(KEYBOARD_NEIGHBOURS[word[at]!] ?? 'e')]) + word.slice(at + 1);
}

const plural = (noun: string) => (/(s|x|ch|sh)$/.test(noun) ? `${noun}es` : /[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`);

// Ways people ask in a sentence, around a phrase of what the agent does.
const SENTENCES = [
  (p: string) => `I need an agent that ${p}`,
  (p: string) => `looking for something which ${p} for my team`,
  (p: string) => `can you recommend a tool that ${p} automatically`,
  (p: string) => `which service ${p} quickly and cheaply`,
];

// What people type for a capability when they do not know its name.
const SYNONYM_QUERIES: Array<{ capability: string; q: string }> = [
  { capability: 'transcription', q: 'voice to text' },
  { capability: 'resume-screening', q: 'cv' },
  { capability: 'customer-support', q: 'help desk' },
  { capability: 'ocr', q: 'text recognition' },
  { capability: 'seo', q: 'search engine optimization' },
  { capability: 'text-to-speech', q: 'read aloud' },
];

// Short words that some capabilities contain.
const SHORT_WORDS = ['sql', 'seo', 'ocr', 'pdf', 'api', 'faq'];

export function generateQueries(agents: BenchAgent[], perKind: number, random: Random): BenchQuery[] {
  const words = new Set<string>();
  const tokens = (a: BenchAgent) => fold([a.name, ...a.capabilities, ...a.tags, a.description, a.longDescription].join(' ')).split(/[^\p{L}\p{N}]+/u);
  for (const agent of agents) for (const w of tokens(agent)) words.add(w);
  const byBrand = new Map<string, BenchAgent[]>();
  for (const agent of agents) {
    const key = fold(agent.brand);
    byBrand.set(key, [...(byBrand.get(key) ?? []), agent]);
  }
  const ids = (list: BenchAgent[]) => new Set(list.map((a) => a.id));
  // A typo that is not a word of the registry (tries a few times, then takes what it has).
  const misspell = (word: string, typos: number) => {
    let out = word;
    for (let attempt = 0; attempt < 20; attempt++) {
      out = word;
      for (let i = 0; i < typos; i++) out = typo(out, random);
      if (out !== word && !words.has(out)) break;
    }
    return out;
  };
  const withCapability = (capability: string) => agents.filter((a) => a.capabilities.includes(capability));

  const make: Record<QueryKind, () => BenchQuery> = {
    exact: () => {
      const a = pick(random, agents);
      return { kind: 'exact', q: a.name, relevant: ids([a]) };
    },
    partial: () => {
      const a = pick(random, agents);
      return { kind: 'partial', q: a.brand, relevant: ids(byBrand.get(fold(a.brand))!) };
    },
    'natural language': () => {
      const d = Math.floor(random() * DOMAINS.length);
      const q = pick(random, SENTENCES)(pick(random, DOMAINS[d]!.phrases));
      return { kind: 'natural language', q, relevant: ids(agents.filter((a) => a.domain === d || a.secondDomain === d)) };
    },
    capability: () => {
      const capability = pick(random, pick(random, DOMAINS).capabilities);
      return { kind: 'capability', q: capability.replace(/-/g, ' '), relevant: ids(withCapability(capability)) };
    },
    synonym: () => {
      const s = pick(random, SYNONYM_QUERIES);
      return { kind: 'synonym', q: s.q, relevant: ids(withCapability(s.capability)) };
    },
    plural: () => {
      const a = pick(random, agents);
      return { kind: 'plural', q: `${a.brand} ${plural(a.noun.toLowerCase())}`, relevant: ids([a]) };
    },
    'one typo': () => {
      const a = pick(random, agents);
      return { kind: 'one typo', q: `${misspell(fold(a.brand), 1)} ${a.noun.toLowerCase()}`, relevant: ids([a]) };
    },
    'two typos': () => {
      const a = pick(random, agents);
      const brand = fold(a.brand);
      const q = brand.length >= 7 ? `${misspell(brand, 2)} ${a.noun.toLowerCase()}` : `${misspell(brand, 1)} ${misspell(a.noun.toLowerCase(), 1)}`;
      return { kind: 'two typos', q, relevant: ids([a]) };
    },
    short: () => {
      const word = pick(random, SHORT_WORDS);
      const a = pick(random, agents.filter((x) => x.capabilities.some((c) => c.split('-').includes(word))));
      const relevant = byBrand.get(fold(a.brand))!.filter((x) => x.capabilities.some((c) => c.split('-').includes(word)));
      return { kind: 'short', q: `${a.brand} ${word}`, relevant: ids(relevant) };
    },
    'short with typo': () => {
      const word = pick(random, SHORT_WORDS);
      const a = pick(random, agents.filter((x) => x.capabilities.some((c) => c.split('-').includes(word))));
      const relevant = byBrand.get(fold(a.brand))!.filter((x) => x.capabilities.some((c) => c.split('-').includes(word)));
      let typed = shortTypo(word, random);
      for (let attempt = 0; attempt < 20 && words.has(typed); attempt++) typed = shortTypo(word, random);
      return { kind: 'short with typo', q: `${a.brand} ${typed}`, relevant: ids(relevant) };
    },
    prefix: () => {
      const a = pick(random, agents);
      const noun = a.noun.toLowerCase();
      return { kind: 'prefix', q: `${a.brand} ${noun.slice(0, Math.max(3, Math.ceil(noun.length * 0.6)))}`, relevant: ids([a]) };
    },
    accent: () => {
      const a = pick(random, agents.filter((x) => fold(x.brand) !== x.brand.toLowerCase()));
      return { kind: 'accent', q: `${fold(a.brand)} ${a.noun.toLowerCase()}`, relevant: ids([a]) };
    },
    nonsense: () => {
      const letters = 'abcdefghijklmnopqrstuvwxyz';
      const word = () => {
        let w = '';
        do {
          w = Array.from({ length: 6 + Math.floor(random() * 5) }, () => pick(random, [...letters])).join('');
        } while (words.has(w));
        return w;
      };
      return { kind: 'nonsense', q: random() < 0.5 ? word() : `${word()} ${word()}`, relevant: new Set() };
    },
    // A name as someone types it into a search-as-you-type box: cut inside its last word, anywhere from the
    // second letter on. Every agent whose name begins so is an answer.
    'as typed': () => {
      const a = pick(random, agents);
      const name = fold(a.name);
      const lastStart = name.lastIndexOf(' ') + 1;
      const lastLength = name.length - lastStart;
      const keep = lastLength <= 2 ? lastLength : 2 + Math.floor(random() * (lastLength - 2));
      const q = name.slice(0, lastStart + keep);
      return { kind: 'as typed', q, relevant: ids(agents.filter((x) => fold(x.name).startsWith(q))) };
    },
    // The same, cut where the typed start of the word is a word of the registry itself ("paint" on the
    // way to "painter"): it must find what the finished word finds, not only agents with that shorter word.
    'prefix is a word': () => {
      for (let attempt = 0; ; attempt++) {
        const a = pick(random, agents);
        const name = fold(a.name);
        const lastStart = name.lastIndexOf(' ') + 1;
        const last = name.slice(lastStart);
        const cuts = [...Array(Math.max(0, last.length - 3)).keys()].map((i) => last.slice(0, i + 3)).filter((cut) => words.has(cut));
        if (cuts.length === 0 && attempt < 200) continue;
        const q = name.slice(0, lastStart) + (cuts.length ? pick(random, cuts) : last);
        return { kind: 'prefix is a word', q, relevant: ids(agents.filter((x) => fold(x.name).startsWith(q))) };
      }
    },
  };

  return QUERY_KINDS.flatMap((kind) => Array.from({ length: perKind }, () => make[kind]()));
}

// The throughput benchmarks' queries: the labelled ones (60 of each kind) without the nonsense ones,
// what people look for.
export function throughputQueries(agents: BenchAgent[], random: Random): BenchQuery[] {
  return generateQueries(agents, 60, random).filter((q) => q.kind !== 'nonsense');
}
