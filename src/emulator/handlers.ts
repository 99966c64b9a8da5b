/**
 * The calls of the Invitation Service (docs/service.md), each as a handler over the emulator's
 * state: the six of the interface text, and the two DELETE calls every published SDK makes
 * (`revokeInvitation` / `revoke_invitation`, `deleteInvitationsByScope`), through which an
 * autojoin invitation disappears outside any autojoin call.
 */
import { scopeKey, type ScopeKey, type ScopeRef } from '../scope.js';
import { domainProblem, normalizeDomains } from './domain-rules.js';
import { HttpError, readBody } from './http-io.js';
import { listedInvitations, pageOf, parseStart } from './listing.js';
import { parseSyncRequest } from './request.js';
import type { Handled, HandlerContext, Route, StateChange } from './routes.js';
import { autojoinAnswer, commitSync, planSync } from './sync.js';
import type { EmulatorData, EmulatorScope } from './types.js';

const INVITATIONS = '/api/v1/invitations';

/** Every route the emulator serves. */
export const ROUTES: readonly Route[] = [
  { method: 'GET', pattern: `${INVITATIONS}/by-group/:groupType/:groupId`, auth: 'apiKey', handle: listByGroup },
  { method: 'GET', pattern: `${INVITATIONS}/by-scope/:scopeType/:scope`, auth: 'apiKey', handle: listByScope },
  { method: 'GET', pattern: `${INVITATIONS}/by-scope/:scopeType/:scope/autojoin`, auth: 'apiKey', handle: getAutojoin },
  { method: 'POST', pattern: `${INVITATIONS}/autojoin`, auth: 'apiKey', handle: syncAutojoin },
  { method: 'DELETE', pattern: `${INVITATIONS}/:invitationId`, auth: 'apiKey', handle: revokeInvitation },
  { method: 'DELETE', pattern: `${INVITATIONS}/by-scope/:scopeType/:scope`, auth: 'apiKey', handle: deleteByScope },
  { method: 'DELETE', pattern: `${INVITATIONS}/by-group/:groupType/:groupId`, auth: 'apiKey', handle: deleteByGroup },
  { method: 'GET', pattern: '/api/v1/customer-invitation-form-style-presets/:presetId', auth: 'bearer', handle: getFormStylePreset },
  { method: 'GET', pattern: '/api/v1/customer-invitation-email-presets', auth: 'bearer', handle: listEmailPresets },
];

/** Call 1 (deprecated): the same listing as 1b, plus headers naming its successor; a 404 once it is "removed". */
function listByGroup(context: HandlerContext): Handled {
  const { groupType, groupId } = context.params as { groupType: string; groupId: string };
  if (!context.state.byGroup) throw new HttpError(404, `Cannot GET ${INVITATIONS}/by-group/${segment(groupType)}/${segment(groupId)}`);
  const successor = `${INVITATIONS}/by-scope/${segment(groupType)}/${segment(groupId)}`;
  const handled = listing(context, { scopeType: groupType, scope: groupId });
  handled.reply.headers = { deprecation: 'true', link: `<${successor}>; rel="successor-version"` };
  return handled;
}

/** Call 1b. */
function listByScope(context: HandlerContext): Handled {
  const { scopeType, scope } = context.params as { scopeType: string; scope: string };
  return listing(context, { scopeType, scope });
}

function listing(context: HandlerContext, ref: ScopeRef): Handled {
  const start = parseStart(context.query.get('start'));
  if (start === null) throw new HttpError(400, 'start must be a non-negative integer');
  const stored = findScope(context.state.data, ref);
  const all = stored ? listedInvitations(stored, context.state) : [];
  // Unpaginated: the whole listing in one page, as the SDKs (which never send `start`) assume.
  const page = context.state.unpaginated ? all : pageOf(all, start, context.state.startMode);
  return { reply: { status: 200, body: { invitations: page } } };
}

/** Call 2b: the scope's domains and autojoin invitation (deactivated after a clear); `{autojoinDomains: [], invitation: null}` for a scope that never had one. */
function getAutojoin(context: HandlerContext): Handled {
  const { scopeType, scope } = context.params as { scopeType: string; scope: string };
  return { reply: { status: 200, body: autojoinAnswer(findScope(context.state.data, { scopeType, scope }), context.state) } };
}

/** A path value as one percent-encoded segment ('.' and '..' too, so they never resolve away). */
function segment(value: string): string {
  return value === '.' || value === '..' ? value.replaceAll('.', '%2E') : encodeURIComponent(value);
}

/**
 * The key alone is not proof: a path may carry a scopeType with an encoded '/' (`team%2Fb` + `c`),
 * whose key `team/b/c` is that of scope `b/c` of type `team`. So the stored pair must match too.
 */
function findScope(data: EmulatorData, ref: ScopeRef): EmulatorScope | undefined {
  const key = scopeKey(ref);
  const stored = Object.hasOwn(data.scopes, key) ? data.scopes[key] : undefined;
  return stored?.scopeType === ref.scopeType && stored.scope === ref.scope ? stored : undefined;
}

/** Call 2: sets the complete domain list of a scope. */
async function syncAutojoin(context: HandlerContext): Promise<Handled> {
  const request = parseSyncRequest(await readBody(context.request), context.request.headers['content-type']);
  const problem = domainProblem(normalizeDomains(request.domains));
  if (problem) throw new HttpError(400, problem);
  const outcome = planSync(context.state.data, request, context.state.now(), context.state);
  return {
    reply: { status: 200, body: outcome.state },
    change: { keys: [outcome.key], apply: () => commitSync(context.state.data, outcome) },
  };
}

/**
 * Revoke (the SDKs: "Revoke (delete) an invitation", answered with an empty object): the
 * invitation is gone from every answer. An autojoin invitation takes the scope's domains with it,
 * so call 2b then answers `{autojoinDomains: [], invitation: null}` (an assumption: no document
 * says what revoking an autojoin invitation leaves). An unknown id is a 404.
 */
function revokeInvitation(context: HandlerContext): Handled {
  const { invitationId } = context.params as { invitationId: string };
  for (const [key, scope] of Object.entries<EmulatorScope>(context.state.data.scopes)) {
    const ordinary = scope.invitations.findIndex((invitation) => invitation.id === invitationId);
    if (scope.autojoin?.invitation.id !== invitationId && ordinary === -1) continue;
    const revoked = ordinary === -1 ? { ...scope, autojoin: null } : { ...scope, invitations: scope.invitations.filter((_, index) => index !== ordinary) };
    return { reply: { status: 200, body: {} }, change: replacing(context.state.data, key, revoked) };
  }
  throw new HttpError(404, `Invitation ${invitationId} not found`);
}

/** Delete by scope (the SDKs' deleteInvitationsByScope): every invitation of the scope, its autojoin one and domains too; `{}` also when it has none. */
function deleteByScope(context: HandlerContext): Handled {
  const { scopeType, scope } = context.params as { scopeType: string; scope: string };
  const stored = findScope(context.state.data, { scopeType, scope });
  if (!stored || (stored.autojoin === null && stored.invitations.length === 0)) return { reply: { status: 200, body: {} } };
  return { reply: { status: 200, body: {} }, change: replacing(context.state.data, scopeKey(stored), { ...stored, autojoin: null, invitations: [] }) };
}

/** The change that puts `scope` in place of the record of `key`. */
function replacing(data: EmulatorData, key: ScopeKey, scope: EmulatorScope): StateChange {
  return {
    keys: [key],
    apply: () => {
      data.scopes[key] = scope;
    },
  };
}

/** The same by its older path, which the Python, Ruby and Rust SDKs still call (deprecated: 404 without by-group, as call 1). */
function deleteByGroup(context: HandlerContext): Handled {
  const { groupType, groupId } = context.params as { groupType: string; groupId: string };
  if (!context.state.byGroup) throw new HttpError(404, `Cannot DELETE ${INVITATIONS}/by-group/${segment(groupType)}/${segment(groupId)}`);
  return deleteByScope({ ...context, params: { scopeType: groupType, scope: groupId } });
}

/** Call 3. */
function getFormStylePreset(context: HandlerContext): Handled {
  const { presetId } = context.params as { presetId: string };
  const preset = Object.hasOwn(context.state.data.formStylePresets, presetId)
    ? context.state.data.formStylePresets[presetId]
    : undefined;
  if (!preset) throw new HttpError(404, `Form style preset ${presetId} not found`);
  return { reply: { status: 200, body: preset } };
}

/** Call 4. */
function listEmailPresets(context: HandlerContext): Handled {
  return { reply: { status: 200, body: context.state.data.emailPresets } };
}
