// Packages that only some deployments use (Stripe without the simulated processor, Typesense, Redis) are
// loaded the first time they are needed rather than at start: compiling them cost every process, the CLI
// included, about a third of its start-up time, whether it used them or not. Node's require loads them
// synchronously, so the code that uses them keeps its shape.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function packageLoader<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
