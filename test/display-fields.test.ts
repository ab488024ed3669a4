// The GraphQL fields that let the dashboard show names rather than ids (src/schema/display.ts): a
// task's agent, a delivery's task, an agent's icon and owner name, and the counts behind its trust.
import { describe, expect, test as it } from './support/fixtures.js';
import { until } from './support/wait.js';

const AGENT = `query($s: String!) { agent(slugOrId: $s) { name iconUrl ownerName completedCount failedCount ratingCount } }`;
const TASK = `query($id: ID!) { task(id: $id) { id agent { id name slug } } }`;
const DELIVERIES = `query($a: ID!) { agentDeliveries(agentId: $a) { id taskId type task { id title status } } }`;

describe('display fields', () => {
  it('name the owner and give the counts on the public agent; the icon only from an https card', async ({ server, owner, agent }) => {
    await server.prisma.user.update({ where: { id: owner.id }, data: { name: 'Ada Lab' } });
    const before = (await server.api.graphql(AGENT, { s: agent.id })).data.agent;
    expect(before).toEqual({ name: 'Fixture agent', iconUrl: null, ownerName: 'Ada Lab', completedCount: 0, failedCount: 0, ratingCount: 0 });

    await server.prisma.agent.update({ where: { id: agent.id }, data: { a2aCard: { iconUrl: 'https://cdn.example.com/icon.png' } } });
    expect((await server.api.graphql(AGENT, { s: agent.id })).data.agent.iconUrl).toBe('https://cdn.example.com/icon.png');
    // Anything but https (javascript:, http:, data:) is not offered as an icon.
    // The owner sees the agent by the same rule.
    const MINE = `query($id: ID!) { myAgent(id: $id) { iconUrl } }`;
    expect((await server.api.graphql(MINE, { id: agent.id }, owner.apiKey)).data.myAgent.iconUrl).toBe('https://cdn.example.com/icon.png');
    for (const iconUrl of ['javascript:alert(1)', 'http://cdn.example.com/icon.png', 'data:image/svg+xml,<svg/>']) {
      await server.prisma.agent.update({ where: { id: agent.id }, data: { a2aCard: { iconUrl } } });
      expect((await server.api.graphql(AGENT, { s: agent.id })).data.agent.iconUrl, iconUrl).toBeNull();
      expect((await server.api.graphql(MINE, { id: agent.id }, owner.apiKey)).data.myAgent.iconUrl, iconUrl).toBeNull();
    }
    // Without a name the owner is not named (never the email).
    await server.prisma.user.update({ where: { id: owner.id }, data: { name: null } });
    expect((await server.api.graphql(AGENT, { s: agent.id })).data.agent.ownerName).toBeNull();
  });

  it("give a task's agent to its requester and a delivery's task to the agent's owner, and nothing to others", async ({ server, owner, requester, agent, task }) => {
    // Before routing the task has no agent; once matched, the agent is named.
    await agent.http.waitFor(1);
    const seen = await server.api.graphql(TASK, { id: task.id }, requester.apiKey);
    expect(seen.data.task).toEqual({ id: task.id, agent: { id: agent.id, name: 'Fixture agent', slug: 'fixture-agent' } });
    const log = await until('the delivery is listed', async () => {
      const answer = await server.api.graphql(DELIVERIES, { a: agent.id }, owner.apiKey);
      return answer.data?.agentDeliveries.find((d: { taskId: string }) => d.taskId === task.id);
    });
    expect(log).toMatchObject({ type: 'task.assigned', task: { id: task.id, title: 'Fixture task' } });

    // The task's own deliveries, with their attempts: for the owner; null for the requester.
    const DELIVERED = `query($id: ID!) { task(id: $id) { deliveries { id type attempts { number statusCode } } } }`;
    const forOwner = await until('the attempt is recorded', async () => {
      const answer = await server.api.graphql(DELIVERED, { id: task.id }, owner.apiKey);
      return answer.data?.task.deliveries?.[0]?.attempts.length ? answer.data.task.deliveries : null;
    });
    expect(forOwner).toEqual([{ id: log.id, type: 'task.assigned', attempts: [{ number: 1, statusCode: 200 }] }]);
    expect((await server.api.graphql(DELIVERED, { id: task.id }, requester.apiKey)).data.task.deliveries).toBeNull();

    // Another user sees neither the task nor the agent's deliveries.
    const stranger = await server.createUser();
    const foreignTask = await server.api.graphql(TASK, { id: task.id }, stranger.apiKey);
    expect(foreignTask.data).toBeNull();
    expect(foreignTask.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const foreignLog = await server.api.graphql(DELIVERIES, { a: agent.id }, stranger.apiKey);
    expect(foreignLog.data).toBeNull();
    expect(['NOT_FOUND', 'FORBIDDEN']).toContain(foreignLog.errors?.[0]?.extensions?.code);
  });

  it('count finished tasks per day, zeros included, and refuse a span outside 1 to 90 days', async ({ server, agent, task }) => {
    const DAILY = `query($s: String!, $d: Int) { agent(slugOrId: $s) { daily(days: $d) { day completed failed } } }`;
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const yesterday = new Date(now.getTime() - 86_400_000);
    await server.prisma.task.update({ where: { id: task.id }, data: { agentId: agent.id, status: 'completed', finishedAt: now } });
    const other = await server.api.post('/v1/tasks', { key: (await server.createUser()).apiKey, body: { title: 'Old', description: 'x', agentId: agent.id } });
    await server.prisma.task.update({ where: { id: other.body.data.id }, data: { agentId: agent.id, status: 'failed', finishedAt: yesterday } });

    const days = (await server.api.graphql(DAILY, { s: agent.id, d: 3 })).data.agent.daily;
    expect(days).toHaveLength(3);
    expect(days[2]).toEqual({ day: today, completed: 1, failed: 0 });
    expect(days[1]).toEqual({ day: yesterday.toISOString().slice(0, 10), completed: 0, failed: 1 });
    expect(days[0]).toMatchObject({ completed: 0, failed: 0 });
    expect((await server.api.graphql(DAILY, { s: agent.id })).data.agent.daily).toHaveLength(14);
    for (const d of [0, 91]) {
      const refused = await server.api.graphql(DAILY, { s: agent.id, d });
      expect(refused.errors?.[0]?.message, String(d)).toMatch(/between 1 and 90/);
    }
  });
});
