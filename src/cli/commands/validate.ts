/**
 * `autojoin-sync validate [PATH…]`: offline checks of policy files (schema, YAML hazards,
 * domains, duplicate scopes). Reads files only: no network, no credentials.
 */
import type { Command } from 'commander';
import type { Diagnostic, LoadResult } from '../../policy/types.js';
import { formatDiagnostic, reportedDiagnostics, summarizeDiagnostics } from '../../render/diagnostics.js';
import { ExitCode } from '../../output/exit-codes.js';
import pc from 'picocolors';
import { addDnsOptions, allowNoPoliciesOption, formatOption, useColor, type DnsFlags } from '../options.js';
import { cliOfflineSettings } from '../cli-settings.js';
import { shownHere } from '../../render/shown-here.js';
import { validateCommand } from '../../commands/validate-command.js';
import { log } from '../../output/log.js';
import { escapeControls, showDomain } from '../../render/index.js';
import { warningLimiter } from '../../render/warning-limit.js';
import { writeStdout } from '../../output/sinks.js';
import { renderSarif } from '../../render/sarif.js';
import { VERSION } from '../../version.js';

interface ValidateOptions extends DnsFlags {
  format: 'text' | 'json' | 'sarif';
  allowNoPolicies?: boolean;
}

/** Registers `autojoin-sync validate`. */
export function register(program: Command): void {
  addDnsOptions(program.command('validate'))
    .description('check policy files offline: schema, YAML hazards, domains, duplicate scopes (no network, no credentials)')
    .argument('[paths...]', 'policy files or directories to search (default: .)')
    .addOption(formatOption(['text', 'json', 'sarif'], 'output format (json: schemas/validate-report.schema.json; sarif: SARIF 2.1.0 for GitHub code scanning)'))
    .addOption(allowNoPoliciesOption())
    .addHelpText(
      'after',
      `
Finds autojoin.yaml, *.autojoin.yaml (and .yml) under the given paths, skipping node_modules and .git,
and reports every problem in every file, one per line, as file:line:col: error|warning: message.
Exit code 1 when there is any error, or when a path holds no policy file (unless --allow-no-policies);
warnings (e.g. a subdomain) do not fail.
It never contacts the service and needs no credentials: safe for pull requests from forks.
With --dns (or dns.check in autojoin-sync.yaml) it also looks every domain up in DNS, its only
network use: a domain that does not exist is an error (whoever registers it can join), one with
no MX and no A/AAAA record a warning, a missing verification TXT record (dns.verify: txt) an error,
a timeout or SERVFAIL a warning (an error with --dns-strict).

Examples:
  $ autojoin-sync validate
  $ autojoin-sync validate policies/ teams/acme.autojoin.yaml
  $ autojoin-sync validate --format json > diagnostics.json   # schemas/validate-report.schema.json
  $ autojoin-sync validate --format sarif > validate.sarif     # SARIF 2.1.0, for github/codeql-action/upload-sarif
  $ autojoin-sync validate --quiet policies/                  # problems only, no summary line
  $ autojoin-sync validate --dns --dns-server 10.0.0.53       # and each domain over DNS, at that resolver`,
    )
    .action(async (paths: string[], options: ValidateOptions) => {
      await runValidate(paths.length > 0 ? paths : ['.'], options);
    });
}

async function runValidate(given: string[], options: ValidateOptions): Promise<void> {
  const { settings, projectFindings } = await cliOfflineSettings(given, options);
  const outcome = await validateCommand({
    context: settings,
    projectFindings,
    ...(options.allowNoPolicies === undefined ? {} : { allowNoPolicies: options.allowNoPolicies }),
  });
  const { diagnostics } = outcome;
  writeStdout(render(options.format, outcome.load, diagnostics, settings.base));
  log().info(summary(outcome.load, diagnostics));
  // As the README words it, as plan and apply say it.
  if (outcome.noPolicies !== null) log().always(`error: ${outcome.noPolicies}`);
  if (outcome.exitCode !== ExitCode.ok) process.exitCode = outcome.exitCode;
}

/** One line per diagnostic; on a terminal (as plan) the severity in red or yellow and the position dimmed. */
function renderText(all: readonly Diagnostic[], color: boolean): string {
  const colors = pc.createColors(color);
  const limiter = warningLimiter(log().level === 'verbose');
  const diagnostics = limiter.take(all);
  const counted = limiter.summary().map((line) => `${line}\n`).join('');
  return diagnostics
    .map((d) => {
      const line = escapeControls(formatDiagnostic(d));
      if (!color) return `${line}\n`;
      const position = `${escapeControls(d.file)}:${d.line}:${d.column}:`;
      const severity = d.severity === 'error' ? colors.red(colors.bold('error:')) : colors.yellow(colors.bold('warning:'));
      return `${colors.dim(position)} ${severity}${line.slice(position.length + d.severity.length + 2)}\n`;
    })
    .join('') + counted;
}

/** Every internationalized domain as punycode beside its Unicode form, so a reviewer sees both. */
function renderIdns(result: LoadResult): string {
  const lines = result.policies.flatMap((policy) =>
    policy.domains.filter((domain) => /(^|\.)xn--/u.test(domain)).map((domain) => `  ${escapeControls(policy.key)}  ${showDomain(domain)}\n`),
  );
  return lines.length > 0 ? `internationalized domains (punycode, then Unicode):\n${lines.join('')}` : '';
}

/** @param base the run's base: text names files from the working directory (shownHere); JSON and SARIF from the base, the repository root */
function render(format: ValidateOptions['format'], result: LoadResult, diagnostics: readonly Diagnostic[], base: string): string {
  if (format === 'sarif') return renderSarif(diagnostics, { version: VERSION }); // files relative to the repository root: the run's base
  return format === 'json' ? renderJson(result, diagnostics) : renderText(shownHere(diagnostics, base), useColor()) + renderIdns(result);
}

function renderJson(result: LoadResult, diagnostics: readonly Diagnostic[]): string {
  // schemas/validate-report.schema.json
  const report = { formatVersion: 1, files: result.files, policies: result.policies.length, diagnostics: reportedDiagnostics(diagnostics) };
  return `${JSON.stringify(report, null, 2)}\n`;
}

function summary(result: LoadResult, diagnostics: readonly Diagnostic[]): string {
  const counted = summarizeDiagnostics(diagnostics, result.files.length);
  const policies = result.policies.length;
  return `${counted}; ${policies} valid ${policies === 1 ? 'policy' : 'policies'}`;
}
