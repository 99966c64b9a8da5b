import { describe, expect, it } from 'vitest';
import { emptyData, generateData } from '../../src/emulator/index.js';
import { answerProblem } from '../../src/service/reader.js';

describe('generateData', () => {
  const data = generateData({ scopes: 3, invitationsPerScope: 4, domainsPerScope: 2, seed: 5 });

  it('names scopes scope-0001… of type team, each with M ordinary invitations and an active autojoin one', () => {
    expect(Object.keys(data.scopes)).toEqual(['team/scope-0001', 'team/scope-0002', 'team/scope-0003']);
    const scope = data.scopes['team/scope-0002'];
    expect(scope?.invitations).toHaveLength(4);
    expect(scope?.invitations.every((invitation) => invitation.invitationType !== 'autojoin')).toBe(true);
    expect(scope?.autojoin?.domains.map((domain) => domain.domain)).toEqual(['d1.scope-0002.example', 'd2.scope-0002.example']);
    expect(scope?.autojoin?.invitation).toMatchObject({ invitationType: 'autojoin', deactivated: false, scope: 'scope-0002', scopeType: 'team' });
  });

  it('is deterministic per seed, with unique ids and a nextId past them', () => {
    expect(generateData({ scopes: 3, invitationsPerScope: 4, domainsPerScope: 2, seed: 5 })).toEqual(data);
    expect(generateData({ scopes: 3, invitationsPerScope: 4, domainsPerScope: 2, seed: 6 })).not.toEqual(data);
    const ids = Object.values(data.scopes).flatMap((scope) => [
      ...scope.invitations.map((invitation) => invitation.id),
      scope.autojoin?.invitation.groups[0]?.id,
      scope.autojoin?.invitation.id,
      ...(scope.autojoin?.domains.map((domain) => domain.id) ?? []),
    ]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(data.nextId).toBe(ids.length + 1);
  });

  it('generates the shapes the SDKs describe: every target type, groups and accepts items, null modifiedAt, mobile form data, unknown fields', () => {
    const many = generateData({ scopes: 1, invitationsPerScope: 40, domainsPerScope: 1, seed: 2 });
    const scope = many.scopes['team/scope-0001'];
    const invitations = scope?.invitations ?? [];
    expect(new Set(invitations.map((invitation) => invitation.target[0]?.type))).toEqual(new Set(['email', 'phone', 'share', 'internal']));
    expect(invitations[0]?.groups).toEqual([
      { id: expect.stringMatching(/^grp_/u), accountId: 'acc_emulator', groupId: 'scope-0001', type: 'team', name: 'Scope 0001', createdAt: expect.any(String) },
    ]);
    expect(scope?.autojoin?.invitation.groups).toEqual(invitations[0]?.groups);
    const accepted = invitations.find((invitation) => (invitation.accepts ?? []).length > 0);
    expect(accepted?.accepts?.[0]).toEqual({
      id: expect.any(String), accountId: 'acc_emulator', projectId: 'prj_emulator', acceptedAt: expect.any(String), target: accepted?.target[0], status: 'accepted',
    });
    expect(invitations.some((invitation) => invitation.modifiedAt === null)).toBe(true);
    const mobile = invitations.map((invitation) => invitation.formSubmissionData as Record<string, { value?: unknown }> | null);
    expect(mobile.some((data) => Array.isArray(data?.emails?.value))).toBe(true);
    expect(mobile.some((data) => typeof data?.contact?.value === 'object')).toBe(true);
    expect(invitations.some((invitation) => 'x_rollout' in invitation)).toBe(true);
    expect(invitations.every((invitation) => typeof invitation.widgetConfigurationId === 'string')).toBe(true);
  });

  it("passes the client's tolerant reader (checked here, never inside the emulator)", () => {
    for (const scope of Object.values(data.scopes)) {
      for (const invitation of [...scope.invitations, scope.autojoin?.invitation]) {
        expect(answerProblem('Invitation', invitation)).toBeNull();
      }
    }
    expect(answerProblem('EmailPresetList', data.emailPresets)).toBeNull();
    for (const preset of Object.values(data.formStylePresets)) expect(answerProblem('FormStylePreset', preset)).toBeNull();
  });

  it('domainsPerScope 0 gives no autojoin invitation; scopeType is configurable', () => {
    const plain = generateData({ scopes: 1, invitationsPerScope: 1, domainsPerScope: 0, seed: 1, scopeType: 'workspace' });
    expect(plain.scopes['workspace/scope-0001']?.autojoin).toBeNull();
  });

  it('emptyData has no scopes but has presets', () => {
    const empty = emptyData();
    expect(empty).toMatchObject({ formatVersion: 1, scopes: {}, nextId: 1 });
    expect(empty.emailPresets.length).toBeGreaterThan(0);
  });
});
