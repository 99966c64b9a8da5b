/**
 * Initial emulator states: `emptyData()` (no scopes, a few presets) and `generateData()`,
 * a deterministic generator of N scopes × M ordinary invitations (+ an autojoin invitation
 * with K domains) for tests and benchmarks. Generated invitations look like the real
 * service's: every target type the SDKs know, accepts, `modifiedAt: null` on some, the
 * `formSubmissionData` shapes of the web and mobile SDKs (string values, arrays, objects)
 * and fields no SDK knows.
 */
import { scopeKey, type ScopeRef } from '../scope.js';
import { formatId } from './ids.js';
import { randomIndex, seededRandom, type Random } from './prng.js';
import { autojoinFields, EMULATOR_ACCOUNT, newAutojoinInvitation } from './sync.js';
import type { EmulatorData, EmulatorScope } from './types.js';
import type { WireAccept, WireGroup, WireInvitation, WireTarget } from './wire.js';

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
  const group: WireGroup = {
    id: formatId('grp', data.nextId++),
    accountId: EMULATOR_ACCOUNT,
    groupId: scope,
    type: ref.scopeType,
    name: scopeName,
    createdAt: new Date(BASE_TIME).toISOString(),
  };
  const invitations: WireInvitation[] = [];
  for (let i = 0; i < options.invitationsPerScope; i++) {
    invitations.push(ordinaryInvitation(ref, group, formatId('inv', data.nextId++), i, random));
  }
  return { ...ref, scopeName, componentId: 'cmp-emulator', invitations, autojoin: generateAutojoin(data, ref, group, options) };
}

/** The state a first sync of these domains leaves; built directly, as planSync would cost ~25 µs a scope. */
function generateAutojoin(data: EmulatorData, ref: ScopeRef, group: WireGroup, options: GenerateOptions): EmulatorScope['autojoin'] {
  if (options.domainsPerScope <= 0) return null;
  const domains = Array.from({ length: options.domainsPerScope }, (_, i) => ({
    id: formatId('ajd', data.nextId++),
    domain: `d${i + 1}.${ref.scope}.example`,
  }));
  const created = newAutojoinInvitation(ref, formatId('inv', data.nextId++), new Date(BASE_TIME).toISOString());
  return { invitation: { ...created, ...autojoinFields(domains, group) }, domains };
}

const TARGET_TYPES = ['email', 'email', 'email', 'phone', 'share', 'internal'] as const;

function ordinaryInvitation(ref: ScopeRef, group: WireGroup, id: string, i: number, random: Random): WireInvitation {
  const createdAt = new Date(BASE_TIME + randomIndex(random, 365 * 24) * 3_600_000).toISOString();
  const target = targetOf(TARGET_TYPES[i % TARGET_TYPES.length] ?? 'email', ref, i);
  const status = STATUSES[randomIndex(random, STATUSES.length)] ?? 'sent';
  return {
    id,
    accountId: EMULATOR_ACCOUNT,
    invitationType: random() < 0.7 ? 'single_use' : 'multi_use',
    status,
    deactivated: false,
    scope: ref.scope,
    scopeType: ref.scopeType,
    target: [target],
    groups: [group],
    accepts: status === 'accepted' ? [acceptOf(id, target, createdAt)] : [],
    projectId: 'prj_emulator',
    widgetConfigurationId: 'wcf_emulator',
    deliveryTypes: [target.type],
    deliveryCount: randomIndex(random, 3),
    views: randomIndex(random, 10),
    clickThroughs: randomIndex(random, 3),
    foreignCreatorId: `user-${i % 7}`,
    formSubmissionData: formSubmissionDataOf(i, target),
    attributes: null,
    metadata: i % 4 === 0 ? { campaign: 'spring', tags: ['a', 'b'] } : null,
    source: i % 5 === 0 ? 'mobile' : 'api',
    expired: false,
    createdAt,
    // The SDKs type modifiedAt as string | null: some invitations were never modified.
    modifiedAt: i % 3 === 0 ? null : createdAt,
    ...unknownFields(i),
  };
}

function targetOf(type: WireTarget['type'], ref: ScopeRef, i: number): WireTarget {
  switch (type) {
    case 'phone':
      return { type, value: `+1555${String(i).padStart(7, '0')}` };
    case 'share':
      return { type, value: `shr_${ref.scope}_${i}` };
    case 'internal':
      return { type, value: `user-${i}`, name: `User ${i}`, avatarUrl: null };
    default:
      return { type: 'email', value: `person${i + 1}@customer-${ref.scope}.example` };
  }
}

function acceptOf(id: string, target: WireTarget, acceptedAt: string): WireAccept {
  return { id: `acc_${id}`, accountId: EMULATOR_ACCOUNT, projectId: 'prj_emulator', acceptedAt, target, status: 'accepted' };
}

/**
 * The web SDK sends `{field: {type, value: string}}`; the mobile SDKs send values that are
 * lists (several invitees at once) or objects (a contact card).
 */
export function formSubmissionDataOf(i: number, target: WireTarget): Record<string, unknown> | null {
  if (i % 5 === 0) {
    return {
      emails: { type: 'email', role: 'invitee', value: [target.value, `second${i}@customer.example`] },
      contact: { type: 'contact', value: { name: `Person ${i}`, phones: ['+15550000000'], starred: i % 2 === 0 } },
      note: ['first line', 'second line'],
    };
  }
  return i % 5 === 1 ? null : { email: { type: 'email', value: target.value } };
}

/** Fields no SDK knows, as a newer service would add them. */
function unknownFields(i: number): Record<string, unknown> {
  if (i % 7 !== 0) return {};
  return { shortLink: `https://vrtx.example/i/${i}`, creatorName: null, x_rollout: { cohort: i % 3, flags: [true, false] } };
}
