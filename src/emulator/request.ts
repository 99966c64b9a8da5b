/**
 * Checking the body of call 2 the way the interface text and the SDKs' ConfigureAutojoinRequest
 * describe it: domains, scope, scopeType and componentId required, scopeName and metadata
 * optional, any other field refused. SDKs before April 2026 (and the Python, Ruby and Rust SDKs
 * still) name componentId `widgetId`: either name is accepted, the same value under both too. Every problem is reported, as a list of messages (the
 * NestJS validation style: `{"statusCode":400,"message":["…","…"],"error":"Bad Request"}`).
 */
import { HttpError } from './http-io.js';
import type { WireSyncRequest } from './wire.js';

type Check = (value: unknown) => string | null;

const string = (min: number, max: number): Check => (value) => {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length < min) return 'should not be empty';
  return value.length > max ? `must be shorter than or equal to ${max} characters` : null;
};

const domainList: Check = (value) => {
  if (!Array.isArray(value)) return 'must be an array';
  if (value.length > 10_000) return 'must contain no more than 10000 elements';
  const bad = value.findIndex((item) => typeof item !== 'string' || item.length === 0 || item.length > 253);
  return bad === -1 ? null : `each value must be a domain of 1 to 253 characters (item ${bad} is not)`;
};

const plainObject: Check = (value) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? null : 'must be an object';

const FIELDS: Record<keyof WireSyncRequest, { check: Check; required: boolean }> = {
  domains: { check: domainList, required: true },
  scope: { check: string(1, 256), required: true },
  scopeType: { check: string(1, 128), required: true },
  componentId: { check: string(1, 256), required: true },
  scopeName: { check: string(0, 512), required: false },
  metadata: { check: plainObject, required: false },
};

/** @returns the body of call 2, or throws a 400 / 415 naming every problem. */
export function parseSyncRequest(bytes: Buffer, contentType: string | undefined): WireSyncRequest {
  if (contentType !== undefined && !/\bjson\b/iu.test(contentType)) {
    throw new HttpError(415, `Content-Type must be application/json, got ${contentType}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'Request body must be a JSON object');
  const { fields, problems: naming } = componentIdOf(body as Record<string, unknown>);
  const problems = [...naming, ...bodyProblems(fields)];
  if (problems.length > 0) throw new HttpError(400, problems);
  const request = fields as unknown as WireSyncRequest;
  // Keys are `scopeType/scope`; a '/' in the type would make two scopes share one key.
  if (request.scopeType.includes('/')) throw new HttpError(400, "scopeType must not contain '/'");
  return request;
}

/** @returns the body with `widgetId` read as `componentId`, and a problem when the two names disagree. */
function componentIdOf(body: Record<string, unknown>): { fields: Record<string, unknown>; problems: string[] } {
  if (!Object.hasOwn(body, 'widgetId')) return { fields: body, problems: [] };
  const { widgetId, ...fields } = body;
  if (fields.componentId === undefined) return { fields: { ...fields, componentId: widgetId }, problems: [] };
  return { fields, problems: fields.componentId === widgetId ? [] : ['componentId and widgetId (its older name) must not differ'] };
}

function bodyProblems(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(body)) {
    if (!Object.hasOwn(FIELDS, key)) problems.push(`property ${key} should not exist`);
  }
  for (const [key, { check, required }] of Object.entries(FIELDS)) {
    if (body[key] === undefined) {
      if (required) problems.push(`${key} is required`);
      continue;
    }
    const problem = check(body[key]);
    if (problem) problems.push(`${key} ${problem}`);
  }
  return problems;
}
