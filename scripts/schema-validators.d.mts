// Types of scripts/schema-validators.mjs, for the test that holds src/generated/ equal to a fresh generation.
import type { Options } from 'ajv/dist/2020.js';

export function ajvOptions(allErrors: boolean): Options;
export const MODULES: readonly { name: string; allErrors: boolean; schemas: readonly string[]; exports: (ids: string[]) => Record<string, string> }[];
export function generateValidators(root?: string): Map<string, string>;
export function writeValidators(root?: string): string[];
export function linearUniqueItems<T>(schema: T): T;
