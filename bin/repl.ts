import { loadConfig } from '../config.js';
import { createNode } from '../services/broker.js';

/**
 * `npm run repl`: the Moleculer REPL (`call v1.issuer.forEmission {...}`, `services`, `nodes`,
 * `actions`…). With REDIS_URL it joins the cluster as a node running no services (SERVICES selects
 * some if wanted); without it, there is no cluster to join, so it starts the whole embedded stack
 * in this process.
 */
const config = loadConfig({ ...process.env, NODE_ID: process.env.NODE_ID ?? `repl-${process.pid}` });
const services = config.redisUrl && !process.env.SERVICES ? [] : undefined;
const broker = await createNode({ config, services });
await broker.start();
broker.repl();
