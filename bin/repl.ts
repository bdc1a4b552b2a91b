import { loadConfig } from '../config.js';
import { createNode } from '../services/broker.js';
import { runningEmbeddedNode, waitForJoinedNode } from '../services/shared/embedded-node.js';

/**
 * `npm run repl`: the Moleculer REPL (`call v1.issuer.forEmission {...}`, `services`, `nodes`,
 * `actions`…). With REDIS_URL it joins the cluster as a node running no services (SERVICES selects
 * some if wanted); without it, it joins the embedded node of `npm start` if one runs on this
 * configuration (over loopback), and otherwise starts the whole embedded stack in this process.
 */
const config = loadConfig({ ...process.env, NODE_ID: process.env.NODE_ID ?? `repl-${process.pid}` });
const join = await runningEmbeddedNode(config);
const services = (config.redisUrl || join) && !process.env.SERVICES ? [] : undefined;
const broker = await createNode({ config, services, ...(join ? { loopback: { join } } : {}) });
await broker.start();
if (join) await waitForJoinedNode(broker, join, 15_000);
broker.repl();
