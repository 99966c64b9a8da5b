/**
 * Reverse lookup and inventory, pure: policies (loaded with their entries) in, rows out. Their
 * forms (CSV, markdown, who's text) are src/render/inventory-text.ts's; JSON is the rows as they are.
 */
import { normalizeDomain } from '../policy/domains.js';
import type { Policy } from '../policy/types.js';
import { compareStrings } from '../comparable-domain.js';

/** One scope and domain. */
export interface InventoryRow {
  scopeType: string;
  scope: string;
  scopeName: string;
  domain: string;
  expires: string;
  reason: string;
  file: string;
  line: number;
}

/** Who last touched a row's line (`--blame`). */
export interface BlameInfo {
  commit: string;
  author: string;
  /** ISO 8601 author date. */
  date: string;
}

export type BlamedRow = InventoryRow & Partial<BlameInfo>;

export const INVENTORY_COLUMNS = ['scopeType', 'scope', 'scopeName', 'domain', 'expires', 'reason', 'file', 'line'] as const;
export const BLAME_COLUMNS = ['commit', 'author', 'date'] as const;

/** @returns one row per scope and domain entry (expired ones too: `expires` says so), by scope then domain. */
export function inventoryRows(policies: readonly Policy[]): InventoryRow[] {
  const rows = policies.flatMap((policy) =>
    (policy.entries ?? []).map((entry) => ({
      scopeType: policy.scopeType,
      scope: policy.scope,
      scopeName: policy.scopeName ?? '',
      domain: entry.domain,
      expires: entry.expires ?? '',
      reason: entry.reason ?? '',
      file: entry.source.file,
      line: entry.source.line,
    })),
  );
  return rows.sort((a, b) => compareStrings(a.scopeType, b.scopeType) || compareStrings(a.scope, b.scope) || compareStrings(a.domain, b.domain));
}

/** One scope that admits a domain, and where. */
export interface Admission {
  key: string;
  scopeType: string;
  scope: string;
  scopeName?: string;
  file: string;
  line: number;
  expires?: string;
  /** With --live: whether the service's list holds the domain for this scope. */
  live?: boolean;
}

/** A domain asked about, and the scopes whose policy admits it now (not expired). */
export interface WhoAnswer {
  /** As asked. */
  query: string;
  /** Normalized: lower case, punycode. */
  domain: string;
  scopes: Admission[];
}

/** @returns for each domain (Unicode or punycode, any case), the scopes admitting it, by key. */
export function whoAdmits(policies: readonly Policy[], queries: readonly string[]): WhoAnswer[] {
  const byDomain = new Map<string, Admission[]>();
  for (const policy of policies) {
    for (const entry of policy.entries ?? []) {
      if (entry.expired) continue;
      const list = byDomain.get(entry.domain) ?? [];
      list.push({
        key: policy.key,
        scopeType: policy.scopeType,
        scope: policy.scope,
        ...(policy.scopeName === undefined ? {} : { scopeName: policy.scopeName }),
        file: entry.source.file,
        line: entry.source.line,
        ...(entry.expires === undefined ? {} : { expires: entry.expires }),
      });
      byDomain.set(entry.domain, list);
    }
  }
  return queries.map((query) => {
    const domain = normalizeDomain(query);
    const scopes = [...(byDomain.get(domain) ?? [])].sort((a, b) => compareStrings(a.key, b.key));
    return { query, domain, scopes };
  });
}
