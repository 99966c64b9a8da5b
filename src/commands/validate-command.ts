/**
 * The validate command over the run context, as both front ends run it (src/cli/commands/validate.ts,
 * src/action/steps.ts): the policy files loaded and checked offline (schema, YAML hazards, domains,
 * duplicate scopes, the project file's rules), the DNS check the context asks for started while they
 * load, and the outcome as data. The front end adds only its words: the format, the annotations,
 * the job summary, the SARIF file.
 */
import { ExitCode, type ExitCodeValue } from '../output/exit-codes.js';
import { checkPoliciesFound, loadPolicies, tolerateMissingPaths } from '../policy/index.js';
import type { Diagnostic, LoadResult } from '../policy/types.js';
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
  return { load, projectFindings, findings, missing, exitCode: failed ? ExitCode.error : ExitCode.ok };
}

/** Loads the policies, with the DNS checks (--dns, dns: in the project file) started while they load. */
async function loadWithDns(command: ValidateCommand): Promise<{ load: LoadResult; overDns: Diagnostic[] }> {
  const { paths, base: cwd, roots, project, dns: settings } = command.context;
  const dns = dnsWhileLoading(settings, cwd);
  const load = await loadPolicies(paths, { cwd, roots, project, projects: projectScopes(command.context), secrets: command.context.secrets, onChecked: dns.onChecked });
  return { load, overDns: await dns.finish(load.policies) };
}

function hasError(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
