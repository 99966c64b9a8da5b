/**
 * Every environment variable the tool reads, with its meaning: the one list. `--help` prints the
 * CLI's part of it (src/cli/program.ts), and test/docs/prose.test.ts holds docs/cli.md, the README
 * and every read of the environment under src/ to it: a variable read but not listed here fails that test.
 */

/** Who reads a variable: every front end, the action alone, or tests. */
export type EnvironmentAudience = 'all' | 'action' | 'test';

export interface EnvironmentVariable {
  /** The variable, or several read as one (`HTTPS_PROXY, HTTP_PROXY, NO_PROXY`). */
  names: readonly string[];
  /** How `--help` shows it, when its name alone is not enough (`AUTOJOIN_LOG=debug`). */
  usage?: string;
  meaning: string;
  audience: EnvironmentAudience;
}

export const ENVIRONMENT: readonly EnvironmentVariable[] = [
  { names: ['AUTOJOIN_BASE_URL'], meaning: 'service base URL (https://…; http:// only for loopback; `embedded`: as --emulator)', audience: 'all' },
  { names: ['AUTOJOIN_API_KEY'], meaning: 'key for the invitation calls (listings, autojoin); a secret', audience: 'all' },
  { names: ['AUTOJOIN_ACCESS_TOKEN'], meaning: 'bearer token for the preset calls; a secret', audience: 'all' },
  { names: ['VORTEX_API_BASE_URL', 'VORTEX_API_KEY'], meaning: "the service SDKs' names, used when the AUTOJOIN_ ones are unset", audience: 'all' },
  { names: ['AUTOJOIN_LOG'], usage: 'AUTOJOIN_LOG=debug', meaning: 'as --verbose (AUTOJOIN_LOG=quiet as --quiet)', audience: 'all' },
  { names: ['AUTOJOIN_READ', 'AUTOJOIN_LISTING'], meaning: 'as --read (autojoin, by-scope, by-group); AUTOJOIN_LISTING is its old name', audience: 'all' },
  { names: ['AUTOJOIN_REQUEST_TIMEOUT'], meaning: 'as --request-timeout (seconds per request attempt, default 30)', audience: 'all' },
  { names: ['AUTOJOIN_DNS_SERVERS'], meaning: 'resolvers of the DNS check (HOST[:PORT],…) when neither --dns-server nor dns.servers names one', audience: 'all' },
  { names: ['AUTOJOIN_NOW'], usage: 'AUTOJOIN_NOW=YYYY-MM-DD', meaning: 'the day expiry dates are compared with (for tests; default: today, UTC)', audience: 'test' },
  { names: ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'], meaning: "proxy for the service's requests (HTTP_PROXY for http://)", audience: 'all' },
  { names: ['NODE_EXTRA_CA_CERTS'], meaning: 'PEM file of a private CA to trust (read by Node)', audience: 'all' },
  { names: ['NO_COLOR', 'FORCE_COLOR', 'TERM'], meaning: 'disable / force colour (TERM=dumb: none)', audience: 'all' },
  { names: ['CI'], meaning: 'set (or any variable a CI service sets): no silent embedded emulator', audience: 'all' },
  {
    names: ['GITHUB_STEP_SUMMARY', 'GITHUB_SHA', 'GITHUB_ACTOR', 'GITHUB_REPOSITORY', 'GITHUB_SERVER_URL', 'GITHUB_EVENT_PATH', 'GITHUB_EVENT_NAME', 'GITHUB_API_URL', 'GITHUB_RUN_ID', 'GITHUB_WORKSPACE', 'GITHUB_ACTION', 'GITHUB_REF_NAME', 'RUNNER_TEMP', 'TMPDIR'],
    meaning: "the workflow's context, as GitHub Actions sets it",
    audience: 'action',
  },
];

/** @returns every variable name of the table */
export function environmentNames(): string[] {
  return ENVIRONMENT.flatMap((entry) => entry.names);
}

/** @returns the `Environment:` block of `--help`: every variable but the action's, one a line */
export function environmentHelp(): string {
  const rows = ENVIRONMENT.filter((entry) => entry.audience !== 'action').map((entry) => [entry.usage ?? entry.names.join(', '), entry.meaning] as const);
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  return rows.map(([name, meaning]) => `  ${name.padEnd(width)}${meaning}`).join('\n');
}
