/**
 * The output sinks: every byte the tool prints, saves or posts goes through one of these, and
 * each passes it through the one redactor (src/redact.ts) first. A service may echo a key back
 * (in a scope's name, its metadata, an error message); the plan, the report and the files made
 * from them then carry it, so redaction belongs here, at the edge, and not in each renderer.
 *
 * The front end names the run's secrets as it enters the run (`withRunScope`, ./run-scope.ts):
 * the CLI from the environment, the action from its inputs too; each run has its own
 * (src/run-values.ts). A new output calls `writeStdout`,
 * `writeStderr` or `writeOutputFile`, or `redactOutput` for a channel of its own (the logger,
 * the action's annotations, outputs, summary and comment).
 */
import { writeFileAtomic, type WriteOptions } from '../files.js';
import { hasRunSecrets, redactText, setRunSecrets } from '../redact.js';

/**
 * Names the current run's secrets (undefined and empty values are skipped), or outside any run
 * the process's (a bench, a test calling the core); every sink hides them from then on, and so
 * does every cut of a value for display (cutText in src/redact.ts). A front end names them as it
 * enters the run instead (./run-scope.ts).
 */
export function setOutputSecrets(secrets: readonly (string | undefined)[]): void {
  setRunSecrets(secrets);
}

/** @returns `text` with every form of every secret of the run replaced by `***`. */
export function redactOutput(text: string): string {
  return redactText(text);
}

/** @returns whether the run has any secret to hide (none with the embedded emulator and no key) */
export function hasOutputSecrets(): boolean {
  return hasRunSecrets();
}

/** @returns whether `text` holds a secret of the run, in any form the redactor knows. */
export function holdsSecret(text: string): boolean {
  return hasRunSecrets() && redactText(text) !== text;
}

/**
 * The one outbound step of a request body sent anywhere but the service (GitHub's API through
 * src/action/github-api.ts, a notification's webhook): @returns its JSON text, every string in it
 * redacted whole. A text shortened for display is cut with cutText before it gets here.
 */
export function outboundJson(body: unknown): string {
  return JSON.stringify(body, (_key, value: unknown) => (typeof value === 'string' ? redactText(value) : value));
}

/** Writes a result to stdout, redacted. @returns false when stdout's buffer is full (as stream.write) */
export function writeStdout(text: string): boolean {
  return process.stdout.write(redactOutput(text));
}

/** Writes a log line or a diagnostic to stderr, redacted. @returns false when stderr's buffer is full */
export function writeStderr(text: string): boolean {
  return process.stderr.write(redactOutput(text));
}

/**
 * Writes a file the user asked for (a saved plan, an imported policy), redacted, never through a symlink.
 * @returns the text written (what a digest of the file is computed from)
 */
export async function writeOutputFile(file: string, text: string, options?: WriteOptions): Promise<string> {
  const written = redactOutput(text);
  await writeFileAtomic(file, written, options);
  return written;
}
