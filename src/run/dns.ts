/**
 * The rules of the DNS check's settings (docs/governance.md, "Domain trust over DNS"), for the CLI and the
 * action alike; src/run/settings.ts applies them once, into `RunSettings.dns`. On with `--dns` (or `--dns-strict`, `--dns-server`; the action's `dns` input)
 * or `dns.check` in autojoin-sync.yaml. Resolvers: `--dns-server` (repeatable), else
 * `dns.servers`, else AUTOJOIN_DNS_SERVERS (comma-separated), else the system's: never a public
 * resolver chosen for the user.
 */
import { compareDiagnostics } from '../policy/format.js';
import type { Diagnostic, Policy, ProjectConfig } from '../policy/types.js';
import { checkPoliciesOverDns, DnsServerError, resolveServerAddress, startDnsCheck, type DnsSettings } from '../dns/index.js';
import { hint, projectFileName, wordHint } from '../hint.js';
import { RunError } from '../output/exit-codes.js';

/** What a front end was told about the DNS check (flags or action inputs). */
export interface DnsRequest {
  /** `--dns` / the `dns` input. */
  dns?: boolean;
  /** `--dns-server`, in order / the `dns-servers` input. */
  servers?: readonly string[];
  /** What named `servers`, for an error (default `--dns-server`). */
  serversFrom?: string;
  /** `--dns-strict` / the `dns-strict` input. */
  strict?: boolean;
}

/** Lookups in flight at once: enough to hide a resolver's latency, few enough for any resolver. */
export const DNS_CONCURRENCY = 32;
const DEFAULT_TIMEOUT_SECONDS = 5;
const DEFAULT_DEADLINE_SECONDS = 120;

/** The check's settings as a run resolved them (RunSettings.dns): where the resolvers were named, for errors. */
export interface DnsCheckSettings extends DnsSettings {
  serversFrom: string;
}

/**
 * Pure: the check's settings from the request, the project file and the environment, the
 * resolvers as given (src/run/settings.ts puts them in RunSettings).
 * @returns null when the check is off
 */
export function dnsConfig(request: DnsRequest, project: ProjectConfig, env: NodeJS.ProcessEnv): DnsCheckSettings | null {
  const dns = project.dns ?? {};
  const asked = request.dns === true || request.strict === true || (request.servers?.length ?? 0) > 0;
  if (!asked && dns.check !== true) return null;
  const { where, servers } = serverSource(request, project, env);
  return {
    servers: [...servers],
    serversFrom: where,
    ...(dns.verify === 'txt' && dns.token !== undefined ? { token: dns.token } : {}),
    strict: request.strict === true || dns.strict === true,
    timeoutMs: (dns.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
    deadlineMs: (dns.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS) * 1000,
    concurrency: DNS_CONCURRENCY,
  };
}

/**
 * @returns the settings with each resolver named by host turned into its address (a lookup)
 * @throws RunError naming where the resolver was given when an address is unusable
 */
export async function resolveDnsServers(settings: DnsCheckSettings | null): Promise<DnsCheckSettings | null> {
  if (settings === null) return null;
  try {
    return { ...settings, servers: await Promise.all(settings.servers.map((server) => resolveServerAddress(server, settings.serversFrom))) };
  } catch (error) {
    throw error instanceof DnsServerError ? new RunError(error.message) : error;
  }
}

/** {@link dnsConfig} then {@link resolveDnsServers}: for `validate`, which reads no service settings. */
export function dnsSettings(request: DnsRequest, project: ProjectConfig, env: NodeJS.ProcessEnv = process.env): Promise<DnsCheckSettings | null> {
  return resolveDnsServers(dnsConfig(request, project, env));
}

/** @returns the first source that names any resolver: the flag (or input), the project file, the environment. */
function serverSource(request: DnsRequest, project: ProjectConfig, env: NodeJS.ProcessEnv): { where: string; servers: readonly string[] } {
  if (request.servers && request.servers.length > 0) return { where: request.serversFrom ?? wordHint(hint('dnsServers')), servers: request.servers };
  const configured = project.dns?.servers ?? [];
  if (configured.length > 0) return { where: `dns.servers in ${projectFileName()}`, servers: configured };
  const fromEnv = (env.AUTOJOIN_DNS_SERVERS ?? '').split(',').map((server) => server.trim()).filter(Boolean);
  return { where: 'AUTOJOIN_DNS_SERVERS', servers: fromEnv };
}

/**
 * The check as the plan's gate and validate's extra step: the policies' domains over DNS.
 * @returns diagnostics at the domain entries (none when `settings` is null)
 */
export async function checkDns(
  policies: readonly Policy[],
  settings: DnsSettings | null,
  options: { cwd: string },
): Promise<Diagnostic[]> {
  if (settings === null || policies.length === 0) return [];
  return (await checkPoliciesOverDns(policies, settings, options)).sort(compareDiagnostics);
}

/** @returns makePlan's `checkBeforeRead` for these settings: nothing when the check is off. */
export function dnsBeforeRead(settings: DnsSettings | null, cwd: string): { checkBeforeRead?: (policies: readonly Policy[]) => Promise<Diagnostic[]> } {
  return settings ? { checkBeforeRead: (policies) => checkDns(policies, settings, { cwd }) } : {};
}

/**
 * The check for `validate`: its lookups start while the files load (`onChecked`), and `finish`
 * places the findings of the policies that loaded.
 * @returns the loader's hook and how to end the check (no hook, no findings when `settings` is null)
 */
export function dnsWhileLoading(settings: DnsSettings | null, cwd: string): { onChecked?: (policy: Policy) => void; finish: (policies: readonly Policy[]) => Promise<Diagnostic[]> } {
  if (settings === null) return { finish: () => Promise.resolve([]) };
  const check = startDnsCheck(settings, { cwd });
  return { onChecked: (policy) => check.add(policy), finish: async (policies) => (await check.finish(policies)).sort(compareDiagnostics) };
}
