// Types of scripts/mutation-changed.mjs, for its test.
export const FLOORS: Record<string, number>;
export const DEFAULT_FLOOR: number;
export function changedModules(base?: string): string[];
export function scoresOf(report: { files: Record<string, { mutants: { status: string }[] }> }): Map<string, { score: number; mutants: number; survived: number }>;
