// Downloads a URL document (docs/decisions.md#url-uploads): http/https only, a total time limit, a size limit,
// at most 5 redirects, and no loopback, private, link-local or metadata addresses unless
// FOLIO_URL_ALLOW_PRIVATE=1. Addresses are checked when the connection is made (not just when
// the name is first resolved), so DNS tricks cannot slip a private address through a redirect.
// Webhook deliveries (queue/webhook-post.ts) connect under the same guard.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import dns, { type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { cleanFilename } from '../../domain/filenames.js';

export class FetchFailure extends Error {
  constructor(
    readonly type: 'fetch_failed' | 'payload_too_large',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface FetchOptions {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  allowPrivate: boolean;
  signal?: AbortSignal;
}

/**
 * Whether Folio may connect to `address`: a public unicast address. An IPv6 address that carries
 * an IPv4 one is judged by that IPv4 address when it is the mapped form (::ffff:a.b.c.d), and
 * refused outright in the deprecated IPv4-compatible form (::a.b.c.d, the whole of ::/96), which
 * some systems still route to the IPv4 host; NAT64, 6to4, Teredo and SIIT prefixes are ranges of
 * their own, never `unicast`, so they are refused too.
 */
export function isPublicAddress(address: string): boolean {
  // WHATWG's reading of the address, as the connection will use it: ipaddr.js takes the dotted
  // tail of `::8.8.8.8` for the mapped form, which it is not.
  const canonical = isIP(address) === 6 && address.includes('.') ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address;
  let parsed = ipaddr.parse(canonical);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.parts.slice(0, 6).every((part) => part === 0)) return false;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** The `filename` of a URL document: the last part of its path, else its host. */
export function filenameFromUrl(url: string): string {
  const parsed = new URL(url);
  const last = parsed.pathname.split('/').filter(Boolean).pop();
  if (!last) return parsed.hostname;
  let decoded = last;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    // a malformed escape: the name as written
  }
  return cleanFilename(decoded, parsed.hostname);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const allowed = addresses.filter((a) => isPublicAddress(a.address));
    if (allowed.length === 0) {
      const refused = new Error(`${hostname} resolves to a private or reserved address`) as NodeJS.ErrnoException;
      refused.code = 'EPRIVATE';
      return callback(refused, '');
    }
    if (options.all) return callback(null, allowed);
    callback(null, allowed[0].address, allowed[0].family);
  });
}

/** Downloads `url` into `destination`; returns the final URL and the number of bytes written. */
export async function fetchToFile(url: string, destination: string, options: FetchOptions): Promise<{ finalUrl: string; bytes: number }> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  let current = new URL(url);
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await request(current, options, signal);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        if (redirects >= options.maxRedirects) throw new FetchFailure('fetch_failed', `The URL redirected more than ${options.maxRedirects} times.`);
        current = new URL(response.headers.location, current);
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw new FetchFailure('fetch_failed', `The URL answered HTTP ${status}.`);
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        response.destroy();
        throw new FetchFailure('payload_too_large', `The file at the URL is ${declared} bytes; the plan allows at most ${options.maxBytes}.`);
      }
      let bytes = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          if (bytes > options.maxBytes) {
            done(new FetchFailure('payload_too_large', `The file at the URL is larger than the plan's ${options.maxBytes} bytes.`));
          } else {
            done(null, chunk);
          }
        },
      });
      await pipeline(response, counter, createWriteStream(destination), { signal });
      return { finalUrl: current.href, bytes };
    }
  } catch (error) {
    await rm(destination, { force: true });
    if (error instanceof FetchFailure) throw error;
    if (deadline.aborted) throw new FetchFailure('fetch_failed', `The URL did not answer within ${Math.round(options.timeoutMs / 1000)} s.`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPRIVATE') throw new FetchFailure('fetch_failed', `The URL points to a private or reserved network address, which is not fetched.`);
    throw new FetchFailure('fetch_failed', `The URL could not be fetched: ${NETWORK_TROUBLE[code ?? ''] ?? 'the download broke off'}.`, { cause: error });
  }
}

/** What a network error code means, in words for the client (the code itself is Node's). */
export const NETWORK_TROUBLE: Record<string, string> = {
  ENOTFOUND: 'its host name is not known',
  EAI_AGAIN: 'its host name could not be looked up',
  ECONNREFUSED: 'its server refused the connection',
  ECONNRESET: 'its server closed the connection',
  EHOSTUNREACH: 'its server cannot be reached',
  ENETUNREACH: 'its server cannot be reached',
  ETIMEDOUT: 'its server did not answer',
  CERT_HAS_EXPIRED: "its server's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its server's TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "its server's TLS certificate is not signed by a known authority",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "its server's TLS certificate could not be verified",
  ERR_TLS_CERT_ALTNAME_INVALID: "its server's TLS certificate is for another host",
  HPE_INVALID_CONSTANT: 'its server did not answer in HTTP',
};

function request(url: URL, options: FetchOptions, signal: AbortSignal): Promise<http.IncomingMessage> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new FetchFailure('fetch_failed', 'The URL redirected to an address that is not http or https, which is not fetched.'));
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(host) && !isPublicAddress(host)) {
    const refused = new Error('private address') as NodeJS.ErrnoException;
    refused.code = 'EPRIVATE';
    return Promise.reject(refused);
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(url, {
      signal,
      headers: { 'user-agent': 'Folio/0.1 (+document fetch)', accept: '*/*' },
      ...(options.allowPrivate ? {} : { lookup: guardedLookup as never }),
    });
    req.on('response', resolve);
    req.on('error', reject);
  });
}
