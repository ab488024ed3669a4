// A synthetic but realistic agent registry: brand-like names over a catalogue of agent domains, each
// with its own nouns, capabilities, tags and description phrases. Deterministic for a given seed.

import { fold } from '../src/search/text/words.js';

export type Random = () => number;

// mulberry32: small, fast and good enough to make the same registry on every run.
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const pickSome = <T>(random: Random, list: readonly T[], n: number): T[] => {
  const copy = [...list];
  const out: T[] = [];
  while (out.length < n && copy.length) out.push(copy.splice(Math.floor(random() * copy.length), 1)[0]!);
  return out;
};

export interface Domain {
  nouns: string[];
  capabilities: string[];
  tags: string[];
  category: string;
  phrases: string[];
}

export const DOMAINS: Domain[] = [
  { nouns: ['Translator', 'Linguist', 'Interpreter'], capabilities: ['translation', 'localization'], tags: ['language', 'multilingual'], category: 'language', phrases: ['translates documents between many languages', 'localizes product copy for new markets'] },
  { nouns: ['Painter', 'Imager', 'Illustrator'], capabilities: ['image-generation', 'text-to-image'], tags: ['art', 'images'], category: 'creative', phrases: ['generates images from text prompts', 'paints illustrations in any style'] },
  { nouns: ['Summarizer', 'Digest', 'Condenser'], capabilities: ['summarization'], tags: ['documents', 'reading'], category: 'productivity', phrases: ['summarizes long reports into key points', 'condenses meeting notes'] },
  { nouns: ['Transcriber', 'Scribe', 'Listener'], capabilities: ['speech-to-text', 'transcription'], tags: ['audio', 'meetings'], category: 'media', phrases: ['transcribes audio and video recordings', 'turns calls into searchable text'] },
  { nouns: ['Narrator', 'Voice', 'Speaker'], capabilities: ['text-to-speech', 'speech-synthesis'], tags: ['audio', 'voice'], category: 'media', phrases: ['reads text aloud with natural voices', 'produces narration for videos'] },
  { nouns: ['Reviewer', 'Linter', 'Inspector'], capabilities: ['code-review', 'static-analysis'], tags: ['developer', 'quality'], category: 'developer', phrases: ['reviews pull requests for bugs and style', 'finds security issues in source code'] },
  { nouns: ['Coder', 'Programmer', 'Builder'], capabilities: ['code-generation', 'api-design'], tags: ['developer', 'automation'], category: 'developer', phrases: ['writes functions from a specification', 'generates boilerplate and tests'] },
  { nouns: ['Extractor', 'Parser', 'Harvester'], capabilities: ['data-extraction', 'pdf-parsing'], tags: ['documents', 'structured-data'], category: 'data', phrases: ['extracts fields from invoices and forms', 'parses tables out of documents'] },
  { nouns: ['Scanner', 'Reader', 'Recognizer'], capabilities: ['ocr', 'document-scanning'], tags: ['documents', 'vision'], category: 'vision', phrases: ['recognizes printed and handwritten text', 'scans receipts into data'] },
  { nouns: ['Analyst', 'Sentiment', 'Gauge'], capabilities: ['sentiment-analysis', 'classification'], tags: ['nlp', 'feedback'], category: 'analytics', phrases: ['measures sentiment in customer feedback', 'classifies reviews by topic'] },
  { nouns: ['Scheduler', 'Planner', 'Calendar'], capabilities: ['scheduling'], tags: ['calendar', 'meetings'], category: 'productivity', phrases: ['finds meeting times across calendars', 'plans shifts and rotas'] },
  { nouns: ['Writer', 'Copywriter', 'Author'], capabilities: ['copywriting', 'content-generation'], tags: ['marketing', 'writing'], category: 'marketing', phrases: ['drafts blog posts and product descriptions', 'writes marketing emails'] },
  { nouns: ['Concierge', 'Helper', 'Assistant'], capabilities: ['customer-support', 'faq-answering'], tags: ['support', 'helpdesk'], category: 'support', phrases: ['answers customer questions around the clock', 'routes support tickets'] },
  { nouns: ['Querier', 'Analyzer', 'Warehouse'], capabilities: ['sql-generation', 'data-analysis'], tags: ['data', 'analytics'], category: 'data', phrases: ['turns questions into SQL queries', 'analyzes spreadsheets and databases'] },
  { nouns: ['Crawler', 'Scraper', 'Spider'], capabilities: ['web-scraping'], tags: ['web', 'data'], category: 'data', phrases: ['collects prices and listings from websites', 'monitors pages for changes'] },
  { nouns: ['Counsel', 'Paralegal', 'Advocate'], capabilities: ['legal-review', 'contract-analysis'], tags: ['legal', 'compliance'], category: 'legal', phrases: ['reviews contracts for risky clauses', 'checks documents for compliance'] },
  { nouns: ['Auditor', 'Accountant', 'Bookkeeper'], capabilities: ['bookkeeping', 'financial-analysis'], tags: ['finance', 'accounting'], category: 'finance', phrases: ['reconciles ledgers and bank statements', 'prepares financial reports'] },
  { nouns: ['Tutor', 'Teacher', 'Mentor'], capabilities: ['tutoring', 'explanation'], tags: ['education', 'learning'], category: 'education', phrases: ['explains math problems step by step', 'builds quizzes from course material'] },
  { nouns: ['Editor', 'Cutter', 'Director'], capabilities: ['video-editing'], tags: ['video', 'media'], category: 'media', phrases: ['edits raw footage into short clips', 'adds subtitles and transitions to videos'] },
  { nouns: ['Composer', 'Musician', 'Maestro'], capabilities: ['music-generation'], tags: ['music', 'audio'], category: 'creative', phrases: ['composes background music', 'generates jingles and soundtracks'] },
  { nouns: ['Visualizer', 'Charter', 'Plotter'], capabilities: ['chart-generation', 'visualization'], tags: ['data', 'charts'], category: 'analytics', phrases: ['draws charts from spreadsheets', 'builds dashboards from metrics'] },
  { nouns: ['Librarian', 'Archivist', 'Oracle'], capabilities: ['question-answering', 'retrieval'], tags: ['documents', 'knowledge'], category: 'knowledge', phrases: ['answers questions over your documents', 'searches internal knowledge bases'] },
  { nouns: ['Recruiter', 'Screener', 'Headhunter'], capabilities: ['resume-screening'], tags: ['hiring', 'hr'], category: 'hr', phrases: ['screens resumes against job descriptions', 'shortlists candidates'] },
  { nouns: ['Optimizer', 'Ranker', 'Booster'], capabilities: ['seo', 'keyword-research'], tags: ['marketing', 'web'], category: 'marketing', phrases: ['improves search rankings of web pages', 'researches keywords for content'] },
  { nouns: ['Tester', 'Prober', 'Checker'], capabilities: ['testing', 'qa-automation'], tags: ['developer', 'quality'], category: 'developer', phrases: ['writes and runs end to end tests', 'checks websites for broken links'] },
  { nouns: ['Sentinel', 'Guardian', 'Watchman'], capabilities: ['security-scanning', 'threat-detection'], tags: ['security', 'monitoring'], category: 'security', phrases: ['scans infrastructure for vulnerabilities', 'detects intrusions in logs'] },
  { nouns: ['Captioner', 'Describer', 'Tagger'], capabilities: ['image-captioning', 'image-tagging'], tags: ['vision', 'accessibility'], category: 'vision', phrases: ['describes images for accessibility', 'tags photo libraries'] },
  { nouns: ['Negotiator', 'Broker', 'Dealer'], capabilities: ['negotiation', 'procurement'], tags: ['sales', 'purchasing'], category: 'business', phrases: ['negotiates prices with suppliers', 'compares vendor quotes'] },
  { nouns: ['Router', 'Dispatcher', 'Courier'], capabilities: ['route-planning', 'logistics'], tags: ['logistics', 'maps'], category: 'logistics', phrases: ['plans delivery routes', 'tracks shipments across carriers'] },
  { nouns: ['Medic', 'Clinician', 'Triage'], capabilities: ['medical-coding', 'triage'], tags: ['health', 'clinical'], category: 'health', phrases: ['assigns medical billing codes', 'sorts patient messages by urgency'] },
];

const SUFFIXES = ['', '', '', 'Pro', 'AI', 'Bot', 'Labs', 'Studio', 'Plus', 'Hub'];
const PROTOCOLS = ['rest', 'mcp', 'a2a', 'grpc', 'graphql', 'websocket'];
const ADJECTIVES = ['fast', 'reliable', 'accurate', 'affordable', 'secure', 'friendly', 'scalable', 'private', 'precise', 'tireless'];
const SYLLABLES = [
  'lu', 'mo', 'ra', 'vel', 'trix', 'no', 'va', 'zen', 'ka', 'li', 'sto', 'qui', 'ber', 'tal', 'dor', 'fin', 'gra', 'hex', 'jo', 'ley',
  'mi', 'nex', 'or', 'pla', 'ron', 'sen', 'tu', 'vio', 'wyn', 'xa', 'yo', 'zor', 'bri', 'cor', 'dyn', 'el', 'fa', 'gen', 'hal', 'is',
];

const ACCENTED: Record<string, string> = { a: 'áà', e: 'éè', i: 'í', o: 'öó', u: 'üú' };

// A pronounceable made-up word of two or three syllables, like most product names; one in eight carries
// an accented vowel ("Lumövel"), as names from many languages do.
function brand(random: Random): string {
  const n = random() < 0.6 ? 2 : 3;
  let word = '';
  for (let i = 0; i < n; i++) word += pick(random, SYLLABLES);
  if (random() < 0.125) {
    const vowels = [...word].map((ch, i) => (ACCENTED[ch] && i > 0 ? i : -1)).filter((i) => i >= 0);
    if (vowels.length) {
      const at = pick(random, vowels);
      word = word.slice(0, at) + pick(random, [...ACCENTED[word[at]!]!]) + word.slice(at + 1);
    }
  }
  return word[0]!.toUpperCase() + word.slice(1);
}

export interface BenchAgent {
  id: string;
  name: string;
  slug: string;
  brand: string;
  noun: string;
  // Indexes into DOMAINS: what the agent does, and sometimes a second thing (named in its long description).
  domain: number;
  secondDomain: number | null;
  description: string;
  longDescription: string;
  protocols: string[];
  categories: string[];
  capabilities: string[];
  tags: string[];
  trustScore: number;
  ratingCount: number;
  ratingSum: number;
  taskCount: number;
}

export function generateAgents(count: number, random: Random): BenchAgent[] {
  const agents: BenchAgent[] = [];
  const names = new Set<string>();
  while (agents.length < count) {
    const domainIndex = Math.floor(random() * DOMAINS.length);
    const domain = DOMAINS[domainIndex]!;
    const b = brand(random);
    const noun = pick(random, domain.nouns);
    const suffix = pick(random, SUFFIXES);
    const name = [b, noun, suffix].filter(Boolean).join(' ');
    // Brand and noun together identify an agent, whatever the suffix: that is what queries name.
    const key = fold(`${b} ${noun}`);
    if (names.has(key)) continue;
    names.add(key);
    const i = agents.length;
    const secondIndex = random() < 0.3 ? Math.floor(random() * DOMAINS.length) : null;
    const second = secondIndex === null ? null : DOMAINS[secondIndex]!;
    const ratingCount = random() < 0.6 ? Math.floor(random() * 50) : 0;
    agents.push({
      id: `agt_bench${String(i).padStart(7, '0')}`,
      name,
      slug: `${key.replace(/[^a-z0-9]+/g, '-')}-${i}`,
      brand: b,
      noun,
      domain: domainIndex,
      secondDomain: secondIndex,
      description: `${b} ${pick(random, domain.phrases)}. ${pick(random, ADJECTIVES)} and ${pick(random, ADJECTIVES)}.`,
      longDescription: `${name} ${pick(random, domain.phrases)}${second ? ` and ${pick(random, second.phrases)}` : ''}. Built for teams that need ${pick(random, ADJECTIVES)} results.`,
      protocols: pickSome(random, PROTOCOLS, 1 + Math.floor(random() * 2)),
      categories: [domain.category, ...(second ? [second.category] : [])],
      capabilities: [...pickSome(random, domain.capabilities, 1 + Math.floor(random() * domain.capabilities.length)), ...(second ? [pick(random, second.capabilities)] : [])],
      tags: pickSome(random, domain.tags, 1 + Math.floor(random() * domain.tags.length)),
      trustScore: Math.round(random() * 1000) / 1000,
      ratingCount,
      ratingSum: ratingCount * (1 + Math.floor(random() * 5)),
      taskCount: Math.floor(random() * 1000),
    });
  }
  return agents;
}
