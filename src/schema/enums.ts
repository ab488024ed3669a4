import { builder } from './builder.js';

export const AgentStatusEnum = builder.enumType('AgentStatus', { values: ['active', 'inactive', 'deprecated'] as const });
export const HealthStatusEnum = builder.enumType('HealthStatus', { values: ['healthy', 'unhealthy', 'unknown'] as const });
export const TrustTierEnum = builder.enumType('TrustTier', { values: ['diamond', 'gold', 'silver', 'bronze', 'unrated'] as const });
