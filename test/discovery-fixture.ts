// A small registry with known answers, shared by the engine suite: distinctive names for typo queries,
// overlapping capabilities and protocols for filters, and distinct ratings, task counts and dates for sorts.
import { bayesianRating } from '../src/reputation/bounded.js';
import type { PrismaClient } from '../src/generated/prisma/client.js';

export interface FixtureAgent {
  id: string;
  name: string;
  slug: string;
  description: string;
  longDescription: string;
  protocols: string[];
  categories: string[];
  capabilities: string[];
  tags: string[];
  status: 'active' | 'inactive' | 'deprecated';
  trustScore: number;
  ratingSum: number;
  ratingCount: number;
  taskCount: number;
  createdAt: Date;
  updatedAt: Date;
}

const base = Date.parse('2026-01-01T00:00:00Z');
const day = 24 * 60 * 60 * 1000;

type Seed = Partial<FixtureAgent> & Pick<FixtureAgent, 'name'>;

const seeds: Seed[] = [
  {
    name: 'Polyglot Translator',
    description: 'Translates documents between forty languages',
    capabilities: ['translation', 'french', 'german'],
    tags: ['language'],
    protocols: ['rest', 'mcp'],
    categories: ['language'],
    trustScore: 0.8,
    ratingSum: 45,
    ratingCount: 10,
    taskCount: 120,
  },
  {
    name: 'Pixel Forge',
    description: 'Paints pictures from text prompts',
    capabilities: ['image-generation'],
    tags: ['art', 'images'],
    protocols: ['rest'],
    categories: ['creative'],
    trustScore: 0.7,
    ratingSum: 24,
    ratingCount: 5,
    taskCount: 80,
  },
  {
    name: 'Gallery Curator',
    description: 'Curates collections of art made by others',
    longDescription: 'Works well with image generation agents and photo libraries.',
    capabilities: ['curation'],
    tags: ['art'],
    protocols: ['rest', 'a2a'],
    categories: ['creative'],
    trustScore: 0.9,
    ratingSum: 15,
    ratingCount: 3,
    taskCount: 10,
  },
  {
    name: 'Summarizer Pro',
    description: 'Condenses long reports into a page',
    capabilities: ['summarization'],
    tags: ['documents'],
    protocols: ['mcp'],
    categories: ['productivity'],
    trustScore: 0.6,
    ratingSum: 7,
    ratingCount: 2,
    taskCount: 300,
  },
  {
    name: 'Voice Studio',
    description: 'Natural speech synthesis for narration',
    capabilities: ['text-to-speech', 'speech'],
    tags: ['audio'],
    protocols: ['rest'],
    categories: ['media'],
    trustScore: 0.5,
    taskCount: 40,
  },
  {
    name: 'Code Reviewer',
    description: 'Reviews pull requests and points out bugs',
    capabilities: ['code-review'],
    tags: ['developer'],
    protocols: ['a2a', 'mcp'],
    categories: ['developer'],
    trustScore: 0.75,
    ratingSum: 12,
    ratingCount: 4,
    taskCount: 55,
  },
  {
    name: 'Invoice Parser',
    description: 'Extracts totals and dates from scanned invoices',
    capabilities: ['ocr', 'extraction'],
    tags: ['finance'],
    protocols: ['rest'],
    categories: ['finance'],
    trustScore: 0.65,
    taskCount: 5,
  },
  {
    name: 'Helper Bot',
    description: 'A general assistant that can also translate short phrases',
    capabilities: ['chat'],
    tags: ['assistant'],
    protocols: ['rest'],
    categories: ['productivity'],
    trustScore: 0.95,
    ratingSum: 50,
    ratingCount: 10,
    taskCount: 500,
  },
  { name: 'Legal Translator', description: 'Translates contracts', capabilities: ['translation'], protocols: ['rest'], status: 'inactive', trustScore: 0.9 },
  { name: 'Retired Imager', description: 'Old image generation service', capabilities: ['image-generation'], protocols: ['rest'], status: 'deprecated' },
  ...Array.from({ length: 16 }, (_, i): Seed => ({
    name: `Filler Agent ${String.fromCharCode(65 + i)}`,
    description: 'Does miscellaneous chores',
    capabilities: ['misc'],
    protocols: i % 2 === 0 ? ['rest'] : ['grpc'],
    categories: ['misc'],
    trustScore: 0.1 + i * 0.01,
    taskCount: i,
    ...(i % 3 === 0 ? { ratingSum: 2 + (i % 4), ratingCount: 1 } : {}),
  })),
];

export function fixtureAgents(ownerId: string, idPrefix: string): FixtureAgent[] {
  return seeds.map((s, i) => ({
    id: `${idPrefix}_${String(i).padStart(3, '0')}`,
    slug: `${idPrefix}-${s.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
    description: '',
    longDescription: '',
    protocols: [],
    categories: [],
    capabilities: [],
    tags: [],
    status: 'active',
    trustScore: 0,
    ratingSum: 0,
    ratingCount: 0,
    taskCount: 0,
    // Creation and update orders differ, so the two sorts are told apart.
    createdAt: new Date(base + i * day),
    updatedAt: new Date(base + ((i * 7) % seeds.length) * day + 1000),
    ...s,
  }));
}

export async function seedFixture(prisma: PrismaClient, idPrefix: string): Promise<FixtureAgent[]> {
  const ownerId = `usr_${idPrefix}`;
  await prisma.user.create({ data: { id: ownerId, email: `${idPrefix}@example.com` } });
  const agents = fixtureAgents(ownerId, idPrefix);
  await prisma.agent.createMany({
    data: agents.map((a) => {
      // The bounded figure the rating sort uses (reputation/bounded.ts), as the service would store it.
      const bounded = bayesianRating(a.ratingSum, a.ratingCount, RATING_MIN_COUNT, FIXTURE_MARKET);
      return { ...a, ownerId, endpoint: `https://agents.example.com/${a.slug}`, ratingBayes: bounded?.bayes ?? null, ratingLowerBound: bounded?.lowerBound ?? null };
    }),
  });
  return agents;
}

const RATING_MIN_COUNT = 10;
const FIXTURE_MARKET = { mean: 3.5, spread: 1 };

export const avgRating = (a: FixtureAgent) => (a.ratingCount > 0 ? a.ratingSum / a.ratingCount : null);
// What the rating sort orders by.
export const ratingLowerBound = (a: FixtureAgent) => bayesianRating(a.ratingSum, a.ratingCount, RATING_MIN_COUNT, FIXTURE_MARKET)?.lowerBound ?? null;
