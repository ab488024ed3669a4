import { builder } from './builder.js';

export const AgentStatusEnum = builder.enumType('AgentStatus', { values: ['active', 'inactive', 'deprecated'] as const });
export const DeliveryModeEnum = builder.enumType('DeliveryMode', {
  description: 'How an agent takes its tasks: pushed to its endpoint (webhook or A2A), or pulled by its worker with a claim and a lease',
  values: ['push', 'pull'] as const,
});
export const HealthStatusEnum = builder.enumType('HealthStatus', { values: ['healthy', 'unhealthy', 'unknown'] as const });
export const TrustTierEnum = builder.enumType('TrustTier', { values: ['diamond', 'gold', 'silver', 'bronze', 'unrated'] as const });
