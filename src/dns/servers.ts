/**
 * Resolver addresses as people write them (`HOST[:PORT]`, `[IPv6]:PORT`) turned into what
 * `Resolver.setServers` takes: IP addresses only, so a host name is looked up once, through the
 * system's resolver.
 */
import { promises as dns } from 'node:dns';
import { isIP, isIPv6 } from 'node:net';

/** A resolver address that cannot be used; the message names it and the accepted forms. */
export class DnsServerError extends Error {}

/**
 * @param text `HOST`, `HOST:PORT`, an IPv6 address, or `[IPv6]:PORT`
 * @param where what named it, for the error, e.g. `--dns-server`
 * @returns the address for `setServers`, e.g. `192.0.2.53:5353` or `[2001:db8::53]:53`
 * @throws DnsServerError when it is malformed or its host name does not resolve
 */
export async function resolveServerAddress(text: string, where: string): Promise<string> {
  const { host, port } = splitServer(text.trim(), where);
  const ip = isIP(host) !== 0 ? host : await lookUpHost(host, text, where);
  if (port === undefined) return ip;
  return isIPv6(ip) ? `[${ip}]:${port}` : `${ip}:${port}`;
}

function splitServer(text: string, where: string): { host: string; port?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/u.exec(text);
  if (bracketed) return checked(bracketed[1] ?? '', bracketed[2], text, where, true);
  if (isIPv6(text)) return { host: text };
  const plain = /^([A-Za-z0-9.-]+)(?::(\d+))?$/u.exec(text);
  if (plain) return checked(plain[1] ?? '', plain[2], text, where, false);
  throw invalid(text, where);
}

function checked(host: string, port: string | undefined, text: string, where: string, ipv6: boolean): { host: string; port?: string } {
  if ((ipv6 && !isIPv6(host)) || host === '') throw invalid(text, where);
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) throw invalid(text, where);
  return port === undefined ? { host } : { host, port: String(Number(port)) };
}

function invalid(text: string, where: string): DnsServerError {
  return new DnsServerError(`${where}: "${text}" is not a resolver address; use HOST, HOST:PORT or [IPv6]:PORT (e.g. 10.0.0.53, 10.0.0.53:5353, [2001:db8::53]:53)`);
}

async function lookUpHost(host: string, text: string, where: string): Promise<string> {
  try {
    return (await dns.lookup(host)).address;
  } catch (error) {
    throw new DnsServerError(`${where}: cannot resolve the resolver's host name in "${text}" (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}
