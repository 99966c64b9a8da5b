/**
 * Is this process running in CI? The answer decides whether a missing base URL may fall back to
 * the embedded emulator (never a silent emulator in CI). Checked the way the ecosystem
 * does (the `ci-info` package's rule): `CI` set to anything but `false`/`0`, or any variable a
 * known CI service always sets. A list here rather than the package: the action bundles this file.
 */

/** Variables that one CI service or another always sets, with any non-empty value. */
export const CI_VARIABLES: readonly string[] = [
  'CONTINUOUS_INTEGRATION',
  'BUILD_ID',
  'BUILD_NUMBER',
  'CI_NAME',
  'RUN_ID',
  'GITHUB_ACTIONS',
  'GITLAB_CI',
  'TF_BUILD', // Azure Pipelines
  'JENKINS_URL',
  'HUDSON_URL',
  'BUILDKITE',
  'CIRCLECI',
  'TRAVIS',
  'TEAMCITY_VERSION',
  'BITBUCKET_BUILD_NUMBER',
  'CODEBUILD_BUILD_ID', // AWS CodeBuild
  'APPVEYOR',
  'DRONE',
  'SEMAPHORE',
  'bamboo_planKey',
  'GO_PIPELINE_LABEL', // GoCD
  'CF_BUILD_ID', // Codefresh
  'HARNESS_BUILD_ID',
  'WOODPECKER_CI',
  'VERCEL',
  'NETLIFY',
];

/**
 * @param env the process environment
 * @returns the variable that shows this is CI (e.g. `TF_BUILD`), or null when nothing does
 */
export function ciVariable(env: NodeJS.ProcessEnv): string | null {
  const ci = env.CI?.trim();
  if (ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0') return 'CI';
  return CI_VARIABLES.find((name) => (env[name] ?? '').trim() !== '') ?? null;
}
