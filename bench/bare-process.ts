/**
 * The bare loop (bare-loop.ts) as a fresh Node process of its own, bundled as the CLI is: what any
 * client pays to start Node and to run undici's code before V8 has optimized it, which the CLI
 * pays too and the loop in the bench's own process does not.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { BareRequest } from './bare-loop.js';
import { probe, type ProbeReport } from './probe.js';

let bundled: Promise<string> | undefined;

/**
 * Prepares the bare loop over each list in turn (reads, then writes) as its own fresh Node
 * process: bundles it (once) and writes the lists, so that `run` times only the process.
 * @returns `run`, which resolves to the process's probe report (its CPU, its peak RSS) when it has exited 0
 */
export async function bareLoopProcess(lists: readonly (readonly BareRequest[])[], concurrency: number, apiKey: string): Promise<{ run: (baseUrl: string) => Promise<ProbeReport> }> {
  bundled ??= bundle();
  const script = await bundled;
  const list = path.join(path.dirname(script), `requests-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(list, JSON.stringify(lists));
  const run = async (baseUrl: string): Promise<ProbeReport> => {
    const probed = await probe(path.dirname(script));
    const child = spawn(process.execPath, [...probed.nodeArgs, script, baseUrl, String(concurrency), list], { env: { ...process.env, BARE_API_KEY: apiKey, ...probed.env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (code !== 0) throw new Error(`the bare loop's process exited ${String(code)}: ${stderr.slice(-500)}`);
    return probed.read();
  };
  return { run };
}

/** @returns the bundled bare loop, in a temp dir removed when the bench exits */
async function bundle(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-bare-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const script = path.join(dir, 'bare-loop.mjs');
  const banner = `import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);`;
  await build({ entryPoints: [fileURLToPath(new URL('./bare-loop.ts', import.meta.url))], outfile: script, bundle: true, minify: true, platform: 'node', format: 'esm', target: 'node20.19', logLevel: 'warning', banner: { js: banner } });
  return script;
}
