/**
 * Reading requests and writing answers in the service's shapes: JSON bodies, and the two error
 * bodies the SDKs read, NestJS-style `{statusCode, message, error}` and `{error}` alone.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';

/** The service's error body; `message` is a list when a request breaks several rules. */
interface ErrorBody {
  statusCode: number;
  message: string | string[];
  error: string;
}

/** 1 MiB: larger request bodies get a 413. */
const MAX_BODY_BYTES = 1024 * 1024;

/** An answer: status, JSON body and extra headers. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** An error answer thrown by a handler. */
export class HttpError extends Error {
  /** What the error body's `message` says: one line, or a list. */
  readonly messages: string | string[];

  constructor(
    readonly status: number,
    message: string | string[],
    readonly headers: Record<string, string> = {},
    /** 'error-only': the body is `{"error": message}`, with no statusCode and no message field. */
    readonly shape: 'nest' | 'error-only' = 'nest',
  ) {
    super(Array.isArray(message) ? message.join('; ') : message);
    this.name = 'HttpError';
    this.messages = message;
  }
}

/** @returns the service's error body, e.g. {"statusCode":400,"message":"…","error":"Bad Request"}. */
function errorBody(status: number, message: string | string[]): ErrorBody {
  return { statusCode: status, message, error: STATUS_CODES[status] ?? 'Error' };
}

/** @returns a Reply for an error. */
export function errorReply(status: number, message: string | string[], headers: Record<string, string> = {}): Reply {
  return { status, body: errorBody(status, message), headers };
}

/** @returns the Reply of a thrown HttpError, in the body shape it asks for. */
export function httpErrorReply(error: HttpError): Reply {
  if (error.shape === 'nest') return errorReply(error.status, error.messages, error.headers);
  return { status: error.status, body: { error: error.message }, headers: error.headers };
}

/** Reads the whole request body, refusing (413) more than MAX_BODY_BYTES. */
export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function tooLarge(): HttpError {
  // We stop reading mid-body, so the connection cannot be reused.
  return new HttpError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes`, { connection: 'close' });
}

/** Writes a complete JSON reply. */
export function sendReply(response: ServerResponse, reply: Reply): void {
  const bytes = encodeBody(reply.body);
  writeHead(response, reply, bytes.length);
  response.end(bytes);
}

/**
 * Writes the first half of a reply under a Content-Length of the whole, then closes the
 * connection: the client sees a body that ends early (the 'truncated' fault).
 */
export function sendTruncated(response: ServerResponse, reply: Reply): void {
  const bytes = encodeBody(reply.body);
  writeHead(response, reply, bytes.length + 16);
  const socket = response.socket;
  response.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => socket?.end());
}

function encodeBody(body: unknown): Buffer {
  return Buffer.from(JSON.stringify(body), 'utf8');
}

function writeHead(response: ServerResponse, reply: Reply, contentLength: number): void {
  response.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(contentLength),
    ...reply.headers,
  });
}
