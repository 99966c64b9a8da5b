/**
 * The validate command over the run context, as both front ends run it (src/cli/commands/validate.ts,
 * src/action/steps.ts): the policy files loaded and checked offline (schema, YAML hazards, domains,
 * duplicate scopes, the project file's rules), the DNS check the context asks for started while they
 * load, and the outcome as data. The front end adds only its words: the format, the annotations,
 * the job summary, the SARIF file.
 */
import { ExitCode, type ExitCodeValue } from '../output/exit-codes.js';
import { checkPoliciesFound, loadPolicies, NoPoliciesError, tolerateMissingPaths } from '../policy/index.js';
import type { Diagnostic, LoadResult, Policy } from '../policy/types.js';
import { compareDiagnostics } from '../policy/format.js';
import { isInside } from '../files.js';
import path from 'node:path';
import { dnsWhileLoading } from '../run/dns.js';
import { projectScopes, type RunContext } from '../run/settings.js';

export interface ValidateCommand {
  /** The run's place, project file, DNS check and secrets (no policy file may hold them). */
  context: Pick<RunContext, 'paths' | 'base' | 'roots' | 'project' | 'projects' | 'dns' | 'secrets'>;
  /** The project file's findings: with an error among them no policy file is loaded (its defaults would be missing from every policy). */
  projectFindings?: readonly Diagnostic[];
  /** `--allow-no-policies` / input `allow-no-policies`: a path without policy files is a warning. */
  allowNoPolicies?: boolean;
}

export interface ValidateOutcome {
  /** What loading found (no policies when the project file has an error). */
  load: LoadResult;
  /** The project file's findings, as given. */
  projectFindings: readonly Diagnostic[];
  /** The policy files' findings, then the DNS check's, a missing path a warning when allowed. */
  findings: Diagnostic[];
  /** The paths given that do not exist. */
  missing: string[];
  /** Every finding, the project file's then the policy files', in the order they are shown (file, line, column). */
  diagnostics: Diagnostic[];
  /** The paths that do not exist in NoPoliciesError's words, as plan and apply say it; null when every path exists. */
  noPolicies: string | null;
  /** 1 when any finding (the project file's too) is an error, else 0. */
  exitCode: ExitCodeValue;
}

const EMPTY_LOAD: LoadResult = { policies: [], policyCount: 0, diagnostics: [], files: [] };

/**
 * Checks the context's policy files offline (and over DNS when the context asks for it).
 * @throws NoPoliciesError when nothing failed but the paths hold no policy file (unless allowed)
 */
export async function validateCommand(command: ValidateCommand): Promise<ValidateOutcome> {
  const { context, allowNoPolicies } = command;
  const projectFindings = command.projectFindings ?? [];
  const loaded = hasError(projectFindings) ? null : await loadWithDns(command);
  const load = loaded?.load ?? EMPTY_LOAD;
  const findings = tolerateMissingPaths([...load.diagnostics, ...(loaded?.overDns ?? [])], allowNoPolicies);
  const failed = hasError(projectFindings) || hasError(findings);
  if (!failed) checkPoliciesFound(context.paths, load, context.base, allowNoPolicies);
  const missing = findings.filter((d) => d.code === 'path-not-found').map((d) => d.file);
  const diagnostics = [...projectFindings, ...findings].sort(compareDiagnostics);
  const noPolicies = missing.length > 0 ? new NoPoliciesError(missing, false).message : null;
  return { load, projectFindings, findings, missing, diagnostics, noPolicies, exitCode: failed ? ExitCode.error : ExitCode.ok };
}

/**
 * Loads the policies, with the DNS checks (--dns, dns: in the project file) started while they
 * load; in a run of several projects, each policy's under its own project's DNS settings.
 */
async function loadWithDns(command: ValidateCommand): Promise<{ load: LoadResult; overDns: Diagnostic[] }> {
  const { paths, base: cwd, roots, project, secrets } = command.context;
  const dns = projectsDns(command.context);
  const load = await loadPolicies(paths, { cwd, roots, project, projects: projectScopes(command.context), secrets, onChecked: dns.onChecked });
  return { load, overDns: await dns.finish(load.policies) };
}

/** One DNS check a project that asks for one (a run of one project: the run's), each policy sent to its own project's. */
function projectsDns(context: ValidateCommand['context']): ReturnType<typeof dnsWhileLoading> {
  const { projects } = context;
  if (projects.length <= 1) return dnsWhileLoading(context.dns, context.base);
  const checks = projects.map((one) => ({ dir: one.dir, check: dnsWhileLoading(one.dns ?? null, context.base) })).sort((a, b) => b.dir.length - a.dir.length);
  if (checks.every(({ check }) => check.onChecked === undefined)) return dnsWhileLoading(null, context.base);
  const checkOf = (policy: Policy) => checks.find(({ dir }) => isInside(dir, path.resolve(context.base, policy.source.file)))?.check;
  return {
    onChecked: (policy) => checkOf(policy)?.onChecked?.(policy),
    finish: async (policies) => {
      const found = await Promise.all(checks.map(({ check }) => check.finish(policies.filter((policy) => checkOf(policy) === check))));
      return found.flat().sort(compareDiagnostics);
    },
  };
}

function hasError(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
