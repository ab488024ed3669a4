// The settings this area added: loopback agent endpoints by default only in development, the CORS
// allow-list, pool sizes, jobs (whether and how long at shutdown), and the log format.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { wantsPrettyLogs } from '../../src/logger.js';

describe('configuration', () => {
  it('allows private agent endpoints by default in development only', () => {
    expect(loadConfig({}).allowPrivateEndpoints).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).allowPrivateEndpoints).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', ALLOW_SIMULATED_PAYMENTS: 'true', SIGNUP: 'closed' }).allowPrivateEndpoints).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).allowPrivateEndpoints).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', ALLOW_SIMULATED_PAYMENTS: 'true', SIGNUP: 'closed', ALLOW_PRIVATE_ENDPOINTS: 'true' }).allowPrivateEndpoints).toBe(true);
    expect(loadConfig({ ALLOW_PRIVATE_ENDPOINTS: 'false' }).allowPrivateEndpoints).toBe(false);
  });

  it('reads CORS_ORIGINS as a list of http(s) origins and refuses anything else', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com/, http://localhost:5173' }).corsOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(() => loadConfig({ CORS_ORIGINS: 'javascript:alert(1)' })).toThrow(ConfigError);
    expect(() => loadConfig({ CORS_ORIGINS: 'not a url' })).toThrow(/CORS_ORIGINS/);
  });

  it('sizes the database pools by DATABASE_POOL_SIZE, 10 by default, 1 to 100', () => {
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: '4' }).databasePoolSize).toBe(4);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: 'many' })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('runs jobs unless RUN_JOBS is false, which needs a PostgreSQL server', () => {
    expect(loadConfig({}).worker.run).toBe(true);
    expect(loadConfig({ RUN_JOBS: 'false', DATABASE_URL: 'postgresql://db/service' }).worker.run).toBe(false);
    expect(() => loadConfig({ RUN_JOBS: 'false' })).toThrow(/RUN_JOBS: false needs DATABASE_URL/);
    expect(() => loadConfig({ RUN_JOBS: 'sometimes' })).toThrow(/RUN_JOBS/);
  });

  it('gives running jobs WORKER_STOP_GRACE_MS at shutdown, 6 s by default, at most a minute', () => {
    expect(loadConfig({}).worker.stopGraceMs).toBe(6000);
    expect(loadConfig({ WORKER_STOP_GRACE_MS: '0' }).worker.stopGraceMs).toBe(0);
    expect(() => loadConfig({ WORKER_STOP_GRACE_MS: '60001' })).toThrow(/WORKER_STOP_GRACE_MS/);
    expect(() => loadConfig({ WORKER_STOP_GRACE_MS: '-1' })).toThrow(/WORKER_STOP_GRACE_MS/);
  });

  it('chooses pretty logs by LOG_FORMAT, else on a terminal outside production', () => {
    expect(wantsPrettyLogs('pretty', 'production')).toBe(true);
    expect(wantsPrettyLogs('json', 'development')).toBe(false);
    expect(wantsPrettyLogs(null, 'production')).toBe(false);
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });
});
