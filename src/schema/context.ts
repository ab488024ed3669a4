import type { PrismaClient } from '../db/client.js';
import type { Viewer } from '../services/accounts.js';
import type { Services } from '../services/index.js';

export interface Context {
  viewer: Viewer | null;
  services: Services;
  // Used only by the Pothos Prisma plugin to load relations; resolvers go through services.
  prisma: PrismaClient;
}
