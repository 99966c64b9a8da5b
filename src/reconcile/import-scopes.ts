/**
 * `importScopes`: read the live state of some scopes (src/service/state.ts) → one canonical
 * policy document per scope (src/policy/canonical.ts), so that `plan` right after shows no changes.
 */
import { renderPolicyDocument } from '../policy/index.js';
import { hint, worded } from '../hint.js';
import { readLiveState } from '../service/state.js';
import { withoutMarker } from '../plan/fields.js';
import { scopeKey, type ScopeRef } from '../scope.js';
import type { ServiceClient } from '../service/client.js';
import type { LiveScope } from '../service/types.js';
import type { Policy } from '../policy/types.js';
import type { RunSettings } from '../run/settings.js';

export interface ImportOptions {
  settings: Pick<RunSettings, 'read'>;
  /** componentId to write where the live invitation shows none (neither `componentId` nor `widgetId`). */
  componentId?: string;
}

/** One scope's live state as a policy, and its canonical policy document. */
export interface ImportedScope {
  policy: Policy;
  /** Canonical YAML (renderPolicyDocument), what `fmt` would write. */
  text: string;
  /** The live autojoin invitation, null when the scope has none (the file then says `domains: []`). */
  live: LiveScope;
}

/**
 * Reads the live state of `refs` and turns each scope into a canonical policy document,
 * so that `plan` right after writing them shows no changes.
 */
export async function importScopes(client: ServiceClient, refs: ScopeRef[], options: ImportOptions): Promise<ImportedScope[]> {
  const live = await readLiveState(client, refs, { mode: options.settings.read });
  return refs.map((ref) => {
    const key = scopeKey(ref);
    const state = live.get(key) ?? { key, ...ref, domains: [], autojoin: null };
    // The component the service shows (componentId or widgetId) is the one written; else the flag's or the default's.
    const componentId = state.componentId ?? options.componentId;
    if (!componentId) {
      throw new Error(
        worded`import needs a componentId for ${key} (its live invitation shows none): pass ${hint('componentId', 'ID')} ` +
          'or set defaults.componentId in autojoin-sync.yaml',
      );
    }
    const policy: Policy = {
      key,
      scope: ref.scope,
      scopeType: ref.scopeType,
      ...importedFields(state),
      componentId,
      domains: state.domains,
      source: { file: '', line: 1, column: 1 },
      explicitEmpty: state.domains.length === 0,
    };
    return { policy, text: renderPolicyDocument(policy), live: state };
  });
}

/** The name and metadata the service shows, as a policy states them (metadata only when it is a non-empty object). */
function importedFields(live: LiveScope): Pick<Policy, 'scopeName' | 'metadata'> {
  const fields: Pick<Policy, 'scopeName' | 'metadata'> = {};
  if (typeof live.scopeName === 'string' && live.scopeName !== '') fields.scopeName = live.scopeName;
  // The ownership marker is the writes' own, never policy: a file holding it would be an error.
  const metadata = withoutMarker(live.metadata);
  if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) && Object.keys(metadata).length > 0) {
    fields.metadata = metadata as Record<string, unknown>;
  }
  return fields;
}
