import type { ScopeKey } from '../scope.js';
import type { ChangeKind } from '../plan/types.js';

export interface AppliedScope {
  key: ScopeKey;
  kind: ChangeKind;
  domains: string[];
}

export interface FailedScope {
  key: ScopeKey;
  kind: ChangeKind;
  /** One line, never a credential. */
  reason: string;
  /** When the service answered with other domains than planned: the domains it stored. */
  liveDomains?: string[];
}

/** What apply did, scope by scope; exit 1 when `failed` or `skipped` is non-empty. */
export interface ApplyReport {
  applied: AppliedScope[];
  failed: FailedScope[];
  /** Scopes not attempted (e.g. the run was interrupted), with why. */
  skipped: { key: ScopeKey; reason: string }[];
}
