/**
 * Initial emulator states: `emptyData()` (no scopes, a few presets) and `generateData()`,
 * a deterministic generator of N scopes × M ordinary invitations (+ an autojoin invitation
 * with K domains) for tests and benchmarks.
 */
import type { Invitation } from '../service/types.js';
import { scopeKey, type ScopeRef } from '../scope.js';
import { formatId } from './ids.js';
import { randomIndex, seededRandom, type Random } from './prng.js';
import { autojoinFields, newAutojoinInvitation } from './sync.js';
import type { EmulatorData, EmulatorScope } from './types.js';

/** The size and seed of a generated state. */
export interface GenerateOptions {
  scopes: number;
  invitationsPerScope: number;
  /** Domains of each scope's active autojoin invitation; 0 gives the scopes no autojoin invitation. */
  domainsPerScope: number;
  seed: number;
  /** Default 'team'. */
  scopeType?: string;
}

const BASE_TIME = Date.UTC(2024, 0, 1);
const STATUSES = ['queued', 'sending', 'sent', 'delivered', 'accepted', 'shared', 'unfurled'] as const;

/** @returns a state with no scopes and a few presets. */
export function emptyData(): EmulatorData {
  return {
    formatVersion: 1,
    scopes: {},
    formStylePresets: {
      'fsp-default': { id: 'fsp-default', name: 'Default', primaryColor: '#1f6feb', fontFamily: 'system-ui', borderRadius: 6 },
      'fsp-compact': { id: 'fsp-compact', name: 'Compact', primaryColor: '#24292f', fontFamily: 'Inter', borderRadius: 2 },
    },
    emailPresets: [
      { id: 'ep-welcome', name: 'Welcome', subject: 'You are invited to join {{scopeName}}', locale: 'en' },
      { id: 'ep-reminder', name: 'Reminder', subject: 'Your invitation to {{scopeName}} is waiting', locale: 'en' },
    ],
    nextId: 1,
  };
}

/** @returns `scopes` scopes named scope-0001, scope-0002, …; the same options give the same data. */
export function generateData(options: GenerateOptions): EmulatorData {
  const data = emptyData();
  const random = seededRandom(options.seed);
  for (let n = 1; n <= options.scopes; n++) {
    const scope = generateScope(data, random, n, options);
    data.scopes[scopeKey(scope)] = scope;
  }
  return data;
}

function generateScope(data: EmulatorData, random: Random, n: number, options: GenerateOptions): EmulatorScope {
  const scope = `scope-${String(n).padStart(4, '0')}`;
  const ref: ScopeRef = { scope, scopeType: options.scopeType ?? 'team' };
  const scopeName = `Scope ${String(n).padStart(4, '0')}`;
  const invitations: Invitation[] = [];
  for (let i = 0; i < options.invitationsPerScope; i++) {
    invitations.push(ordinaryInvitation(ref, scopeName, formatId('inv', data.nextId++), i, random));
  }
  return { ...ref, scopeName, componentId: 'cmp-emulator', invitations, autojoin: generateAutojoin(data, ref, scopeName, options) };
}

/** The state a first sync of these domains leaves; built directly, as planSync would cost ~25 µs a scope. */
function generateAutojoin(data: EmulatorData, ref: ScopeRef, scopeName: string, options: GenerateOptions): EmulatorScope['autojoin'] {
  if (options.domainsPerScope <= 0) return null;
  const domains = Array.from({ length: options.domainsPerScope }, (_, i) => ({
    id: formatId('ajd', data.nextId++),
    domain: `d${i + 1}.${ref.scope}.example`,
  }));
  const created = newAutojoinInvitation(ref, formatId('inv', data.nextId++), new Date(BASE_TIME).toISOString());
  return { invitation: { ...created, ...autojoinFields(ref, scopeName, domains) }, domains };
}

function ordinaryInvitation(ref: ScopeRef, scopeName: string, id: string, i: number, random: Random): Invitation {
  const createdAt = new Date(BASE_TIME + randomIndex(random, 365 * 24) * 3_600_000).toISOString();
  return {
    id,
    accountId: 'acc_emulator',
    invitationType: random() < 0.7 ? 'single_use' : 'multi_use',
    status: STATUSES[randomIndex(random, STATUSES.length)] ?? 'sent',
    deactivated: false,
    scope: ref.scope,
    scopeType: ref.scopeType,
    target: [{ type: 'email', value: `person${i + 1}@customer-${ref.scope}.example` }],
    groups: [{ type: ref.scopeType, id: ref.scope, name: scopeName }],
    accepts: [],
    projectId: 'prj_emulator',
    deliveryTypes: ['email'],
    deliveryCount: randomIndex(random, 3),
    views: randomIndex(random, 10),
    clickThroughs: randomIndex(random, 3),
    source: 'api',
    expired: false,
    createdAt,
    modifiedAt: createdAt,
  };
}
