/**
 * `notifications` in a command's one JSON document (`--format json`): what became of each
 * notification target, added after delivery to the document the command already rendered
 * (the apply report, the result document, the plan), as its last key.
 */
export interface NotificationEntry {
  to: string;
  variable: string;
  delivered: boolean;
  attempts: number;
}

/**
 * @param document a JSON object as the renderers write it (2-space indent, trailing newline)
 * @returns the same document with `notifications` as its last key
 */
export function withNotifications(document: string, notifications: readonly NotificationEntry[]): string {
  const end = document.lastIndexOf('}');
  if (end < 0) return document;
  const body = document.slice(0, end).trimEnd();
  const entries = JSON.stringify(notifications.map(({ to, variable, delivered, attempts }) => ({ to, variable, delivered, attempts })), null, 2).replace(/\n/gu, '\n  ');
  const comma = body.endsWith('{') ? '' : ',';
  return `${body}${comma}\n  "notifications": ${entries}\n}\n`;
}
