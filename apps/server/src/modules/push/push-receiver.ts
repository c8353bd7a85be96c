/**
 * A local stand-in for a browser and its push service, for the tests and the benchmark: a subscription made as a
 * browser makes one (a P-256 key pair and a 16-byte auth secret), and an HTTP server on 127.0.0.1 that takes the
 * server's Web Push POSTs, checks their VAPID signature and decrypts them with the subscription's private key
 * (RFC 8291 on RFC 8188 aes128gcm), written here with node:crypto alone, apart from the library that encrypts.
 */
import { createDecipheriv, createECDH, createPublicKey, type ECDH, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PushSubscriptionJson } from '@amora/contracts';

export interface BrowserSubscription {
  json: PushSubscriptionJson;
  /** The plaintext of an aes128gcm body sent to this subscription. */
  decrypt(body: Buffer): string;
}

/** A subscription as a browser's PushManager makes it, for `endpoint`. */
export function browserSubscription(endpoint: string): BrowserSubscription {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    json: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
    decrypt: (body) => decryptAes128gcm(body, ecdh, auth),
  };
}

const hkdf = (ikm: Buffer, salt: Buffer, info: Buffer, length: number) => Buffer.from(hkdfSync('sha256', ikm, salt, info, length));

/** RFC 8291 §3.4 and RFC 8188 §2: one record (a push is at most 4 KB), ended by the 0x02 delimiter and zero padding. */
function decryptAes128gcm(body: Buffer, ecdh: ECDH, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20];
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const shared = ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), senderKey]);
  const ikm = hkdf(shared, auth, keyInfo, 32);
  const cek = hkdf(ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('not the last record');
  return padded.subarray(0, end).toString('utf8');
}

/**
 * The VAPID header's key (`k`) when its JWT (`t`) is signed by it (ES256) for the endpoint's origin and not expired,
 * else null (RFC 8292).
 */
export function verifiedVapidKey(authorization: string | undefined, endpoint: string): string | null {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) return null;
  const [, jwt, k] = match;
  const [header, claims, signature] = jwt.split('.');
  const raw = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  const { aud, exp } = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string; exp: number };
  return signed && aud === new URL(endpoint).origin && exp * 1000 > Date.now() ? k : null;
}

interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

export interface PushReceiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  received: ReceivedPush[];
  /** The answer to POSTs to `path` from now on (201 unless set). */
  answer(path: string, status: number, headers?: Record<string, string>): void;
  /** Called with each push as it arrives. */
  onPush?: (push: ReceivedPush) => void;
  /** Keep nothing in `received` (a benchmark's many pushes). */
  keep: boolean;
  close(): Promise<void>;
}

export async function startPushReceiver(): Promise<PushReceiver> {
  const answers = new Map<string, { status: number; headers: Record<string, string> }>();
  const receiver: PushReceiver = {
    origin: '',
    received: [],
    keep: true,
    answer(path, status, headers = {}) {
      answers.set(path, { status, headers });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const push: ReceivedPush = { path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks), at: performance.now() };
      if (receiver.keep) receiver.received.push(push);
      receiver.onPush?.(push);
      const answer = answers.get(push.path) ?? { status: 201, headers: {} };
      response.writeHead(answer.status, answer.headers).end();
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
