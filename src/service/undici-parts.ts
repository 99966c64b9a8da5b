/**
 * The parts of undici the transport uses, each from its own module. undici's index also loads
 * fetch, WebSocket, EventSource, its caches and its mocks: on Node 20 (no compile cache) that
 * is most of the time undici takes to load, on every run's start-up path.
 */
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import api from 'undici/lib/api/index.js';
import retryInterceptor from 'undici/lib/interceptor/retry.js';

// What undici's index does once: every dispatcher gets request, stream, pipeline, connect and
// upgrade (the proxy agent opens its CONNECT tunnel with `connect`).
Object.assign(Dispatcher.prototype, api);

export { Agent, EnvHttpProxyAgent, retryInterceptor };
