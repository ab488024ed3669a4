// An agent built with @a2a-js/sdk's server (DefaultRequestHandler, in-memory task and push stores, the
// SDK's push sender, its Express JSON-RPC and agent-card handlers) on loopback. The test decides what it
// does with each message (`behave`), can sign its card, and can serve any other body at any path (hostile
// cards, key sets).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import express from 'express';
import { generateAgentCardSignature, type AgentCard, type Message } from '@a2a-js/sdk';
import {
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

export type Behaviour = (ctx: RequestContext, bus: ExecutionEventBus) => Promise<void> | void;

export interface SdkAgent {
  url: string;
  cardUrl: string;
  // Every message the agent received, in order.
  received: Message[];
  cancelled: string[];
  // The JSON-RPC methods called, in order (message/send from a v0.3 client, SendMessage from v1.0).
  methods: string[];
  behave(behaviour: Behaviour): void;
  // Serve `body` (a string or a value written as JSON) at `path`, with `status`.
  serve(path: string, body: unknown, status?: number): void;
  close(): Promise<void>;
}

export interface SdkAgentOptions {
  name?: string;
  description?: string;
  skills?: Array<{ id: string; name: string; tags: string[] }>;
  streaming?: boolean;
  pushNotifications?: boolean;
  // Sign the card: the key set at /jwks.json (jku) or the public key embedded in the protected header.
  sign?: 'jku' | 'embedded';
  // A peer that declares v0.3 on its interface (the SDK's compatibility layer answers message/send).
  protocolVersion?: '1.0' | '0.3';
}

export async function startSdkAgent(opts: SdkAgentOptions = {}): Promise<SdkAgent> {
  const received: Message[] = [];
  const cancelled: string[] = [];
  const raw = new Map<string, { status: number; body: string }>();
  let behaviour: Behaviour = (ctx, bus) => {
    bus.publish({ kind: 'task', data: { id: ctx.taskId, contextId: ctx.contextId, status: { state: 1, message: undefined, timestamp: new Date().toISOString() }, artifacts: [], history: [ctx.userMessage], metadata: undefined } });
    bus.finished();
  };
  const executor: AgentExecutor = {
    async execute(ctx, bus) {
      received.push(ctx.userMessage);
      await behaviour(ctx, bus);
    },
    async cancelTask(taskId, bus) {
      cancelled.push(taskId);
      bus.publish({ kind: 'statusUpdate', data: { taskId, contextId: taskId, status: { state: 5, message: undefined, timestamp: new Date().toISOString() }, metadata: undefined } });
      bus.finished();
    },
  };

  const app = express();
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const card: AgentCard = {
    name: opts.name ?? 'Kestrel Translator',
    description: opts.description ?? 'Translates text into French',
    version: '2.1.0',
    provider: { organization: 'Birdworks', url: 'https://birdworks.example' },
    documentationUrl: 'https://birdworks.example/docs',
    iconUrl: 'https://birdworks.example/icon.png',
    supportedInterfaces: [{ url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: opts.protocolVersion ?? '1.0' }],
    capabilities: { streaming: opts.streaming ?? true, pushNotifications: opts.pushNotifications ?? true, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['application/json'],
    skills: (opts.skills ?? [{ id: 'translate', name: 'Translate', tags: ['language', 'french'] }]).map((s) => ({
      ...s,
      description: s.name,
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    })),
    signatures: [],
  };

  let signer;
  if (opts.sign) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...(publicKey as KeyObject).export({ format: 'jwk' }), kid: 'key-1', alg: 'ES256', use: 'sig' };
    raw.set('/jwks.json', { status: 200, body: JSON.stringify({ keys: [jwk] }) });
    const header = opts.sign === 'jku' ? { alg: 'ES256', typ: 'JOSE', kid: 'key-1', jku: `${base}/jwks.json` } : { alg: 'ES256', typ: 'JOSE', kid: 'key-1', jwk };
    signer = generateAgentCardSignature(privateKey, header);
  }

  const pushStore = new InMemoryPushNotificationStore();
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor, undefined, pushStore, new DefaultPushNotificationSender(pushStore), undefined, signer);
  app.use((req, res, next) => {
    const hit = raw.get(req.path);
    if (!hit) return next();
    res.status(hit.status).type('application/json').send(hit.body);
  });
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  const methods: string[] = [];
  app.use('/a2a/jsonrpc', express.json(), (req, _res, next) => {
    if (typeof req.body?.method === 'string') methods.push(req.body.method);
    next();
  });
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: opts.protocolVersion === '0.3' } }));

  return {
    url: base,
    cardUrl: `${base}/.well-known/agent-card.json`,
    received,
    cancelled,
    methods,
    behave(b) {
      behaviour = b;
    },
    serve(path, body, status = 200) {
      raw.set(path, { status, body: typeof body === 'string' ? body : JSON.stringify(body) });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
