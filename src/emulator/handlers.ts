/** The six calls of design.md, each as a handler over the emulator's state. */
import apiSchema from '../../schemas/api/invitation-service.schema.json' with { type: 'json' };
import type { SyncRequest } from '../service/types.js';
import { contractViolation } from '../service/contract.js';
import { pathSegment } from '../service/paths.js';
import { scopeKey, type ScopeRef } from '../scope.js';
import { domainProblem, normalizeDomains } from './domains.js';
import { HttpError, readBody } from './http-io.js';
import { listedInvitations, pageOf, parseStart } from './listing.js';
import type { Handled, HandlerContext, Route } from './routes.js';
import { commitSync, planSync } from './sync.js';
import type { EmulatorData, EmulatorScope } from './types.js';

const INVITATIONS = '/api/v1/invitations';

/** Every route the emulator serves. */
export const ROUTES: readonly Route[] = [
  { method: 'GET', pattern: `${INVITATIONS}/by-group/:groupType/:groupId`, auth: 'apiKey', handle: listByGroup },
  { method: 'GET', pattern: `${INVITATIONS}/by-scope/:scopeType/:scope`, auth: 'apiKey', handle: listByScope },
  { method: 'GET', pattern: `${INVITATIONS}/by-scope/:scopeType/:scope/autojoin`, auth: 'apiKey', handle: getAutojoin },
  { method: 'POST', pattern: `${INVITATIONS}/autojoin`, auth: 'apiKey', handle: syncAutojoin },
  { method: 'GET', pattern: '/api/v1/customer-invitation-form-style-presets/:presetId', auth: 'bearer', handle: getFormStylePreset },
  { method: 'GET', pattern: '/api/v1/customer-invitation-email-presets', auth: 'bearer', handle: listEmailPresets },
];

/** Call 1 (deprecated): the same listing as 1b, plus headers naming its successor. */
function listByGroup(context: HandlerContext): Handled {
  const { groupType, groupId } = context.params as { groupType: string; groupId: string };
  const successor = `${INVITATIONS}/by-scope/${pathSegment(groupType)}/${pathSegment(groupId)}`;
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
  const all = stored ? listedInvitations(stored, { autojoinTargets: context.state.autojoinTargets }) : [];
  return { reply: { status: 200, body: { invitations: pageOf(all, start, context.state.startMode) } } };
}

/** Call 2b: the scope's autojoin invitation and domains; 404 when it never had one. */
function getAutojoin(context: HandlerContext): Handled {
  const { scopeType, scope } = context.params as { scopeType: string; scope: string };
  const autojoin = findScope(context.state.data, { scopeType, scope })?.autojoin;
  if (!autojoin) throw new HttpError(404, `No autojoin invitation for scope ${scopeType}/${scope}`);
  return { reply: { status: 200, body: { autojoinDomains: autojoin.domains, invitation: autojoin.invitation } } };
}

/**
 * The key alone is not proof: a path may carry a scopeType with an encoded '/' (`team%2Fb` + `c`),
 * whose key `team/b/c` is that of scope `b/c` of type `team`. So the stored pair must match too.
 */
function findScope(data: EmulatorData, ref: ScopeRef): EmulatorScope | undefined {
  const key = scopeKey(ref);
  const stored = Object.hasOwn(data.scopes, key) ? data.scopes[key] : undefined;
  return stored && stored.scopeType === ref.scopeType && stored.scope === ref.scope ? stored : undefined;
}

/** Call 2: sets the complete domain list of a scope. */
async function syncAutojoin(context: HandlerContext): Promise<Handled> {
  const request = parseSyncRequest(await readBody(context.request), context.request.headers['content-type']);
  const problem = domainProblem(normalizeDomains(request.domains));
  if (problem) throw new HttpError(400, problem);
  const outcome = planSync(context.state.data, request, context.state.now());
  return {
    reply: { status: 200, body: outcome.state },
    commit: () => commitSync(context.state.data, outcome),
  };
}

function parseSyncRequest(bytes: Buffer, contentType: string | undefined): SyncRequest {
  if (contentType !== undefined && !/\bjson\b/iu.test(contentType)) {
    throw new HttpError(415, `Content-Type must be application/json, got ${contentType}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON');
  }
  const violation = contractViolation('SyncRequest', body);
  if (violation) throw new HttpError(400, withExtraFields(violation, body));
  const request = body as SyncRequest;
  // Keys are `scopeType/scope`; a '/' in the type would make two scopes share one key.
  if (request.scopeType.includes('/')) throw new HttpError(400, "scopeType must not contain '/'");
  return request;
}

const SYNC_REQUEST_FIELDS = new Set(Object.keys(apiSchema.$defs.SyncRequest.properties));

/** Ajv says "must NOT have additional properties" without naming them; name them. */
function withExtraFields(violation: string, body: unknown): string {
  if (!/additional properties/u.test(violation) || typeof body !== 'object' || body === null) return violation;
  const extra = Object.keys(body).filter((key) => !SYNC_REQUEST_FIELDS.has(key));
  return `${violation}: ${extra.join(', ')}`;
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
