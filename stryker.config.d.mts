// Types of stryker.config.mjs, for the tests that read its module list.
export const MUTATE: string[];
declare const config: Record<string, unknown>;
export default config;
