/**
 * Pure: what the answers about one domain mean for autojoin, and which lookup to ask next.
 * Autojoin admits anyone with a mailbox at the domain, so the questions are: does the domain
 * exist (else whoever registers it can join), can it receive mail at all, and, when verifying,
 * does it publish the organization's token. An answer that never came is a warning (an error
 * when strict): it proves nothing either way.
 */
import { VERIFICATION_PREFIX, type Answer, type DnsFinding, type DomainAnswers, type RecordType } from './types.js';

/** What classification needs besides the answers. */
export interface Judgement {
  /** The verification token, when the check verifies TXT records. */
  token?: string;
  strict: boolean;
}

/**
 * @returns the next record type to look up for `domain`, or null when the answers so far decide
 *   everything: MX first; TXT when verifying; A, then AAAA, only while no mail host is known.
 *   A name that does not exist needs no further lookup, and neither does one whose lookup got no
 *   answer: its servers are not answering, and each further lookup would wait as long again.
 */
export function nextLookup(answers: DomainAnswers, verifying: boolean): RecordType | null {
  if (!answers.MX) return 'MX';
  if (Object.values(answers).some((answer) => answer.kind === 'nxdomain' || answer.kind === 'unanswered')) return null;
  if (verifying && !answers.TXT) return 'TXT';
  if (receivesMail(answers) !== undefined) return null;
  if (!answers.A) return 'A';
  if (!answers.AAAA) return 'AAAA';
  return null;
}

/**
 * @returns true when an MX, A or AAAA lookup found records, false when all three answered that
 *   there are none, undefined when that cannot be told yet (a lookup is missing or unanswered)
 */
function receivesMail(answers: DomainAnswers): boolean | undefined {
  const mail = [answers.MX, answers.A, answers.AAAA];
  if (mail.some((answer) => answer?.kind === 'records')) return true;
  return mail.every((answer) => answer?.kind === 'nodata') ? false : undefined;
}

/**
 * Judges one domain from its answers.
 * @returns at most one finding about its existence or mail, plus one about its verification
 */
export function classifyDomain(domain: string, answers: DomainAnswers, judgement: Judgement): DnsFinding[] {
  if (Object.values(answers).some((answer) => answer.kind === 'nxdomain')) {
    return [{ severity: 'error', code: 'dns-nxdomain', message: `${domain} does not exist in DNS (NXDOMAIN): whoever registers it can join` }];
  }
  const findings: DnsFinding[] = [];
  const mail = receivesMail(answers);
  if (mail === false) {
    findings.push({ severity: 'warning', code: 'dns-no-mail', message: `${domain} has no MX and no A/AAAA record: it receives no mail` });
  } else if (mail === undefined) {
    findings.push(unanswered(domain, pick(answers, ['MX', 'A', 'AAAA']), judgement.strict));
  }
  if (judgement.token !== undefined) findings.push(...verification(domain, answers.TXT, judgement));
  return findings;
}

function verification(domain: string, txt: Answer | undefined, judgement: Judgement): DnsFinding[] {
  if (txt?.kind === 'unanswered') return [unanswered(domain, { TXT: txt }, judgement.strict)];
  const wanted = `${VERIFICATION_PREFIX}${judgement.token ?? ''}`;
  if (txt?.kind === 'records' && txt.values.includes(wanted)) return [];
  const message = `${domain} does not publish the TXT record "${wanted}": no proof that the organization controls it`;
  return [{ severity: 'error', code: 'dns-unverified', message }];
}

/** One finding for the lookups that got no answer, e.g. `MX: timeout, A: SERVFAIL`. */
function unanswered(domain: string, answers: DomainAnswers, strict: boolean): DnsFinding {
  const failed = Object.entries(answers).filter((entry): entry is [string, Answer & { kind: 'unanswered' }] => entry[1].kind === 'unanswered');
  const reasons = failed.map(([type, answer]) => [type, answer.reason] as const);
  const timedOut = reasons.some(([, reason]) => reason === 'timeout' || reason === 'deadline');
  const code = timedOut ? 'dns-timeout' : 'dns-unanswered';
  const why = reasons.map(([type, reason]) => `${type}: ${REASONS[reason] ?? reason}`).join(', ');
  const message = `no answer about ${domain} (${why || 'not looked up'}), so it could not be checked`;
  return { severity: strict ? 'error' : 'warning', code, message };
}

const REASONS: Record<string, string> = {
  timeout: 'timed out',
  deadline: 'the DNS check ran out of time first',
  servfail: 'SERVFAIL',
  refused: 'REFUSED',
};

function pick(answers: DomainAnswers, types: readonly RecordType[]): DomainAnswers {
  const picked: DomainAnswers = {};
  for (const type of types) {
    const answer = answers[type];
    if (answer) picked[type] = answer;
  }
  return picked;
}
