/**
 * The policy loader in a worker thread (src/policy/load-worker.ts) gives what the loader gives
 * in-process (load.ts streamPolicies): the same batches, warnings, `failed` and result, on files
 * with every kind of finding. The worker module is bundled here from src/ the way
 * scripts/build.mjs bundles it for the CLI, and runs in a real thread.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, type Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProjectSource, streamPolicies, type LoadOptions, type LoadResult, type PolicyBatch } from '../../src/policy/index.js';
import { BATCHES_HERE, streamPoliciesInWorker, WORKER_AHEAD, type WorkerChoice, type WorkerMessage } from '../../src/policy/load-worker.js';
import { serveLoad } from '../../src/policy/load-worker-main.js';
import { discoverPolicyFiles } from '../../src/policy/discover.js';

const SECRET = { name: 'AUTOJOIN_API_KEY', value: 'sk-load-worker-0123456789' };
const TODAY = '2026-03-01';
const RULES = 'rules:\n  - name: no agencies\n    deny: ["*.agency.example"]\n    level: warning\n  - name: one scope a domain\n    maxScopesPerDomain: 2\n';

let dir = '';
let workerUrl: URL;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'autojoin-load-worker-'));
  workerUrl = pathToFileURL(join(dir, 'policy-loader.mjs'));
  const banner = `import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);`;
  await build({ entryPoints: ['src/policy/load-worker-main.ts'], outfile: join(dir, 'policy-loader.mjs'), bundle: true, platform: 'node', format: 'esm', target: 'node20.19', logLevel: 'warning', banner: { js: banner } });
  await writeFixture(join(dir, 'policies'));
  // Eight batches: more than the worker may send ahead, so it is still running when a stream stops.
  await mkdir(join(dir, 'many'));
  await Promise.all(Array.from({ length: 8 * 64 }, (_, n) => writeFile(join(dir, 'many', `m${String(n).padStart(4, '0')}.autojoin.yaml`), doc(`m${n}`, [`m${n}.example.com`]))));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const doc = (scope: string, domains: string[], extra = ''): string => `scope: ${scope}\nscopeType: team\ncomponentId: cmp\n${extra}domains:\n${domains.map((d) => `  - ${d}\n`).join('')}`;

/**
 * 350 files with an error, warnings, a duplicate, a secret, expiry and rules, early and late: in
 * the batches the main thread loads while the thread starts (8 × 16 files), and in those the
 * worker posts (64 files each, 4 of them here).
 */
const FIXTURE_FILES = 350;

async function writeFixture(root: string): Promise<void> {
  await mkdir(root, { recursive: true });
  const special: Record<number, string> = {
    3: 'scope: [not, a, scope]\n',
    10: doc('s0010', ['x.agency.example', 'sub.d10.example.com', 'd10.example.com']),
    20: doc('s0005', ['dup.example.com']),
    40: doc('s0040', ['d40.example.com'], `scopeName: ${SECRET.value}\n`),
    70: doc('s0070', ['d70.example.com', '{domain: old.example.com, expires: "2020-01-01"}']),
    100: doc('s0100', ['shared.example.com']),
    101: doc('s0101', ['shared.example.com']),
    102: doc('s0102', ['shared.example.com']),
    140: `${doc('s0140', ['d140.example.com'])}---\n${doc('s0141', ['gmail.com'])}`,
    160: 'scopeType: [not, a, type]\n',
    180: doc('s0180', ['y.agency.example', 'sub.d180.example.com', 'd180.example.com']),
    200: doc('s0020', ['dup2.example.com']),
    240: doc('s0240', ['d240.example.com'], `metadata: {token: ${SECRET.value}}\n`),
    270: doc('s0270', ['d270.example.com', '{domain: old270.example.com, expires: "2020-01-01"}']),
    300: doc('s0300', ['shared300.example.com']),
    301: doc('s0301', ['shared300.example.com']),
    302: doc('s0302', ['shared300.example.com']),
    340: `${doc('s0340', ['d340.example.com'])}---\n${doc('s0341', ['yahoo.com'])}`,
  };
  for (let n = 1; n <= FIXTURE_FILES; n++) {
    const text = special[n] ?? doc(`s${String(n).padStart(4, '0')}`, [`d${n}.example.com`]);
    await writeFile(join(root, `p${String(n).padStart(4, '0')}.autojoin.yaml`), text);
  }
}

function options(): Omit<LoadOptions, 'onChecked'> {
  const project = parseProjectSource({ file: 'autojoin-sync.yaml', text: RULES }, join(dir, 'autojoin-sync.yaml'));
  expect(project.diagnostics).toEqual([]);
  return { cwd: dir, roots: [dir], project: project.config, secrets: [SECRET], today: TODAY };
}

async function drain(stream: AsyncGenerator<PolicyBatch, LoadResult, undefined>): Promise<{ batches: PolicyBatch[]; result: LoadResult }> {
  const batches: PolicyBatch[] = [];
  for (let next = await stream.next(); ; next = await stream.next()) {
    if (next.done) return { batches, result: next.value };
    batches.push(next.value);
  }
}

/** @returns the workers started while `run` ran, and what it returned */
async function withWorkers<T>(run: () => Promise<T>): Promise<{ workers: Worker[]; value: T }> {
  const workers: Worker[] = [];
  const started = (worker: Worker): number => workers.push(worker);
  process.on('worker', started);
  try {
    return { value: await run(), workers };
  } finally {
    process.off('worker', started);
  }
}

const exitOf = (worker: Worker): Promise<number> => new Promise((resolve) => worker.once('exit', resolve));

describe('the policy loader in a worker thread', () => {
  it('gives the same batches and result as in-process: errors, warnings, a duplicate, a secret, expiry, rules', async () => {
    const inProcess = await drain(streamPolicies(['policies'], options()));
    const choice: WorkerChoice = { url: workerUrl, minFiles: 1 };
    const { workers, value: inWorker } = await withWorkers(() => drain(streamPoliciesInWorker(['policies'], options(), choice)));
    expect(workers).toHaveLength(1);
    expect(inWorker).toEqual(inProcess);
    // The fixture holds what it is meant to: every kind of finding, and a failed load.
    const codes = new Set([...inProcess.batches.flatMap((batch) => batch.warnings), ...inProcess.result.diagnostics].map((d) => d.code));
    expect([...codes].sort()).toEqual(expect.arrayContaining(['duplicate-scope', 'secret-in-policy', 'rule-deny', 'rule-max-scopes', 'subdomain', 'webmail-domain', 'expired-domain']));
    expect(inProcess.batches.length).toBeGreaterThanOrEqual(BATCHES_HERE + 3);
    expect(inProcess.batches.map((batch) => batch.failed)).toEqual(inProcess.batches.map(() => true));
    const handed = inProcess.batches.flatMap((batch) => batch.policies);
    expect(handed.find((policy) => policy.key === 'team/s0070')?.expired).toEqual([{ domain: 'old.example.com', expires: '2020-01-01' }]);
    expect(handed.find((policy) => policy.key === 'team/s0270')?.expired).toEqual([{ domain: 'old270.example.com', expires: '2020-01-01' }]);
    // The worker's own batches hold findings of every kind too, not only the ones loaded here.
    const posted = inProcess.batches.slice(BATCHES_HERE);
    const postedCodes = new Set(posted.flatMap((batch) => batch.warnings).map((d) => d.code));
    expect([...postedCodes].sort()).toEqual(['expired-domain', 'rule-deny', 'subdomain']);
    const lateErrors = inProcess.result.diagnostics.filter((d) => d.severity === 'error' && Number(/p(\d+)/u.exec(d.file)?.[1]) > 128).map((d) => d.code);
    expect(new Set(lateErrors)).toEqual(new Set(['wrong-type', 'missing-key', 'duplicate-scope', 'secret-in-policy', 'rule-max-scopes', 'webmail-domain']));
  });

  it('loads the first batches small (a window of reads each), then 64 files a batch', async () => {
    const { batches } = await drain(streamPolicies(['many'], options()));
    expect(batches.map((batch) => batch.policies.length)).toEqual([...Array.from({ length: BATCHES_HERE }, () => 16), 64, 64, 64, 64, 64, 64]);
  });

  it('loads in-process below the file count, above the cap, and when the worker module cannot start', async () => {
    const inProcess = await drain(streamPolicies(['policies'], options()));
    const few = await withWorkers(() => drain(streamPoliciesInWorker(['policies'], options(), { url: workerUrl, minFiles: FIXTURE_FILES + 1 })));
    expect(few.workers).toHaveLength(0);
    expect(few.value).toEqual(inProcess);
    const many = await withWorkers(() => drain(streamPoliciesInWorker(['policies'], options(), { url: workerUrl, minFiles: 1, maxFiles: FIXTURE_FILES - 1 })));
    expect(many.workers).toHaveLength(0);
    expect(many.value).toEqual(inProcess);
    const all = await withWorkers(() => drain(streamPoliciesInWorker(['policies'], options(), { url: workerUrl, minFiles: FIXTURE_FILES, maxFiles: FIXTURE_FILES })));
    expect(all.workers).toHaveLength(1);
    expect(all.value).toEqual(inProcess);
    const missing = pathToFileURL(join(dir, 'no-such-worker.mjs'));
    const broken = await withWorkers(() => drain(streamPoliciesInWorker(['policies'], options(), { url: missing, minFiles: 1 })));
    expect(broken.workers).toHaveLength(1);
    expect(broken.value).toEqual(inProcess);
  });

  it('a worker that dies after its first batch, or whose loader throws, is an error that says so, never a hang', async () => {
    const worker = (body: string): URL => new URL(`data:text/javascript,${encodeURIComponent(`import { parentPort } from 'node:worker_threads';\n${body}`)}`);
    const batch = "parentPort.postMessage({ type: 'batch', batch: { policies: [], warnings: [], failed: false } });";
    // The first batches are loaded on this side while the thread starts; the worker's own messages follow them.
    const here = async (stream: AsyncGenerator<PolicyBatch, LoadResult, undefined>): Promise<void> => {
      for (let loaded = 0; loaded < BATCHES_HERE; loaded++) expect((await stream.next()).done).toBe(false);
    };
    const dying = streamPoliciesInWorker(['policies'], options(), { url: worker(`${batch}\nparentPort.once('message', () => process.exit(3));`), minFiles: 1 });
    await here(dying);
    expect((await dying.next()).done).toBe(false);
    await expect(dying.next()).rejects.toThrow(/worker thread exited \(code 3\) before it had loaded every file/);
    const throwing = streamPoliciesInWorker(['policies'], options(), { url: worker("parentPort.postMessage({ type: 'failed', error: new RangeError('the loader broke') });"), minFiles: 1 });
    await here(throwing);
    await expect(throwing.next()).rejects.toThrow('the loader broke');
  });

  it('a stream stopped after the batches loaded here terminates the worker', async () => {
    // 'online' is listened for from the start: the thread may be up before the first batch is back.
    const started = new Promise<{ worker: Worker; online: Promise<unknown> }>((resolve) => process.once('worker', (worker: Worker) => resolve({ worker, online: new Promise((up) => worker.once('online', up)) })));
    const stream = streamPoliciesInWorker(['many'], options(), { url: workerUrl, minFiles: 1 });
    for (let loaded = 0; loaded < BATCHES_HERE; loaded++) expect((await stream.next()).done).toBe(false);
    const { worker, online } = await started;
    const exited = exitOf(worker);
    // Running (not still starting, which terminate() also ends, with code 0), and more batches to load than it may send ahead.
    await online;
    await stream.return({ policies: [], policyCount: 0, diagnostics: [], files: [] });
    // terminate() stops a thread that has not finished (exit code 1); one left waiting would never exit.
    expect(await exited).toBe(1);
  });
});

describe('the worker side', () => {
  it(`sends at most ${WORKER_AHEAD} batches before the consumer takes one, then one for each taken`, async () => {
    const opts = options();
    const discovery = await discoverPolicyFiles(['policies'], dir);
    const { port1, port2 } = new MessageChannel();
    const received: WorkerMessage[] = [];
    let arrived: (() => void) | undefined;
    port2.on('message', (message: WorkerMessage) => {
      received.push(message);
      arrived?.();
    });
    const until = async (count: number): Promise<void> => {
      while (received.length < count) await new Promise<void>((resolve) => (arrived = resolve));
    };
    const total = (await drain(streamPolicies(['policies'], opts))).batches.length;
    expect(total).toBeGreaterThan(WORKER_AHEAD);
    const served = serveLoad(port1, { discovery, options: opts, ahead: WORKER_AHEAD });
    // The loader gives the event loop turns between batches; with a credit left it would have sent more by then.
    const settled = async (): Promise<void> => {
      for (let turn = 0; turn < 20; turn++) await new Promise(setImmediate);
    };
    await until(WORKER_AHEAD);
    await settled();
    expect(received.map((message) => message.type)).toEqual(['batch', 'batch', 'batch']);
    for (let taken = 1; taken <= total - WORKER_AHEAD + 1; taken++) {
      port2.postMessage('more');
      await until(WORKER_AHEAD + taken);
      await settled();
      expect(received).toHaveLength(WORKER_AHEAD + taken);
    }
    // Every batch, then the result once the last was taken.
    expect(received.map((message) => message.type)).toEqual([...Array.from({ length: total }, () => 'batch'), 'done']);
    await served;
    port2.close();
  });

  it('checks the batches the main thread loaded without posting them (skipBatches)', async () => {
    const opts = options();
    const discovery = await discoverPolicyFiles(['policies'], dir);
    const inProcess = await drain(streamPolicies(['policies'], opts));
    const { port1, port2 } = new MessageChannel();
    const received: WorkerMessage[] = [];
    const done = new Promise<void>((resolve) =>
      port2.on('message', (message: WorkerMessage) => {
        received.push(message);
        port2.postMessage('more');
        if (message.type === 'done') resolve();
      }),
    );
    await serveLoad(port1, { discovery, options: opts, ahead: WORKER_AHEAD, skipBatches: BATCHES_HERE });
    await done;
    port2.close();
    const batches = received.flatMap((message) => (message.type === 'batch' ? [message.batch] : []));
    expect(batches).toEqual(inProcess.batches.slice(BATCHES_HERE));
    expect(received.at(-1)).toEqual({ type: 'done', result: inProcess.result });
  });
});
