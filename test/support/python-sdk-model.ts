/**
 * The Python SDK's pydantic models, as a checker of answers: what vortex-python-sdk 0.10.0
 * (src/vortex_sdk/types.py: InvitationResult, InvitationGroup, InvitationAcceptance,
 * InvitationTarget, AutojoinDomainsResponse) requires of an answer, field by field (each name
 * is the JSON alias; a field with a default is optional there, and only typed when present).
 * Written from reading the model, not copied from it; a fixture that passes would parse there.
 */

type Check = (value: unknown) => boolean;

const str: Check = (value) => typeof value === 'string';
const int: Check = (value) => Number.isInteger(value);
const bool: Check = (value) => typeof value === 'boolean';
const optional = (check: Check): Check => (value) => value === undefined || value === null || check(value);
const oneOf = (...values: string[]): Check => (value) => typeof value === 'string' && values.includes(value);
const list = (check: Check): Check => (value) => Array.isArray(value) && value.every(check);
const dict: Check = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

const TARGET: Record<string, Check> = { type: oneOf('email', 'phone', 'share', 'internal'), value: str };
const GROUP: Record<string, Check> = { id: str, accountId: str, groupId: str, type: str, name: str, createdAt: str };
const ACCEPTANCE: Record<string, Check> = { id: str, accountId: str, projectId: str, acceptedAt: str, target: model(TARGET) };

/** InvitationResult: the required fields (no default in the model) and the typed optional ones. */
const INVITATION: Record<string, Check> = {
  id: str,
  accountId: str,
  clickThroughs: int,
  createdAt: str,
  deactivated: bool,
  deliveryCount: int,
  deliveryTypes: list(oneOf('email', 'phone', 'share', 'internal')),
  foreignCreatorId: str,
  invitationType: oneOf('single_use', 'multi_use', 'autojoin'),
  status: oneOf('queued', 'sending', 'sent', 'delivered', 'accepted', 'shared', 'unfurled', 'accepted_elsewhere'),
  views: int,
  widgetConfigurationId: str,
  deploymentId: str,
  projectId: str,
  expired: bool,
  // Optional in the model (a default), typed when present:
  modifiedAt: optional(str),
  target: optional(list(model(TARGET))),
  groups: optional(list((item) => item === null || model(GROUP)(item))),
  accepts: optional(list(model(ACCEPTANCE))),
  configurationAttributes: optional(dict),
  attributes: optional(dict),
  metadata: optional(dict),
  passThrough: optional(str),
  scope: optional(str),
  scopeType: optional(str),
};

const OPTIONAL = new Set(['modifiedAt', 'target', 'groups', 'accepts', 'configurationAttributes', 'attributes', 'metadata', 'passThrough', 'scope', 'scopeType']);

function model(fields: Record<string, Check>): Check {
  return (value) => pythonProblems(fields, value).length === 0;
}

function pythonProblems(fields: Record<string, Check>, value: unknown, optionalFields: ReadonlySet<string> = new Set()): string[] {
  if (!dict(value)) return ['not an object'];
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const [name, check] of Object.entries(fields)) {
    if (record[name] === undefined && !optionalFields.has(name)) problems.push(`${name} is required`);
    else if (record[name] !== undefined && !check(record[name])) problems.push(`${name} has the wrong type (${JSON.stringify(record[name])})`);
  }
  return problems;
}

/** @returns what the Python SDK's InvitationResult would refuse in `invitation` ([] when it parses). */
export function pythonInvitationProblems(invitation: unknown): string[] {
  return pythonProblems(INVITATION, invitation, OPTIONAL);
}

/** @returns what the Python SDK's AutojoinDomainsResponse would refuse in a call 2 / 2b answer. */
export function pythonAutojoinProblems(answer: unknown): string[] {
  if (!dict(answer)) return ['not an object'];
  const { autojoinDomains, invitation } = answer as Record<string, unknown>;
  const problems = list(model({ id: str, domain: str }))(autojoinDomains) ? [] : ['autojoinDomains must be a list of {id, domain}'];
  if (invitation !== null && invitation !== undefined) problems.push(...pythonInvitationProblems(invitation).map((problem) => `invitation.${problem}`));
  return problems;
}
