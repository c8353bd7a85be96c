import type { SmsConfig } from '../../config';

/** One SMS as a provider takes it. */
interface SmsMessage {
  /** E.164, e.g. +31612345678. */
  to: string;
  text: string;
  /** Our outbox id: sent along as the provider's reference, so a delivery can be traced back. */
  reference: string;
}

/**
 * Where SMS go. The default ('dev') sends nothing: the outbox row is the SMS, shown on the dev SMS page. A real
 * provider is an adapter with `send`, which throws when the provider did not take the message (the job retries).
 */
export interface SmsAdapter {
  readonly name: 'messagebird' | 'twilio';
  /** Answers the provider's id of the message. */
  send(message: SmsMessage): Promise<{ providerId: string | null }>;
}

/** A provider's refusal or an unreachable provider: status and the start of the answer. */
export class SmsProviderError extends Error {
  constructor(
    message: string,
    public readonly status: number | null,
  ) {
    super(message);
    this.name = 'SmsProviderError';
  }
}

const TIMEOUT_MS = 10_000;

async function post(url: string, init: { headers: Record<string, string>; body: string }): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
  } catch (error) {
    throw new SmsProviderError(`SMS provider unreachable: ${(error as Error).message}`, null);
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) throw new SmsProviderError(`SMS provider answered ${response.status}: ${text.slice(0, 300)}`, response.status);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function idOf(body: unknown, key: string): string | null {
  const value = (body as Record<string, unknown> | null)?.[key];
  return typeof value === 'string' ? value : null;
}

/**
 * MessageBird's SMS API (POST /messages, `Authorization: AccessKey …`, JSON with originator, recipients, body
 * and reference; answers 201 with the message's id).
 */
export function messageBirdAdapter(options: { apiKey: string; from: string; apiUrl?: string | null }): SmsAdapter {
  const url = options.apiUrl || 'https://rest.messagebird.com/messages';
  return {
    name: 'messagebird',
    async send(message) {
      const body = await post(url, {
        headers: { authorization: `AccessKey ${options.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          originator: options.from,
          recipients: [message.to.replace(/^\+/, '')],
          body: message.text,
          reference: message.reference,
        }),
      });
      return { providerId: idOf(body, 'id') };
    },
  };
}

/**
 * Twilio's Programmable Messaging (POST /2010-04-01/Accounts/{SID}/Messages.json, HTTP basic auth with the
 * account SID and auth token, a form with To, From and Body; answers 201 with the message's sid).
 */
export function twilioAdapter(options: { apiKey: string; from: string; apiUrl?: string | null }): SmsAdapter {
  const [sid, token] = [options.apiKey.slice(0, options.apiKey.indexOf(':')), options.apiKey.slice(options.apiKey.indexOf(':') + 1)];
  const url = options.apiUrl || `https://api.twilio.com/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`;
  return {
    name: 'twilio',
    async send(message) {
      const body = await post(url, {
        headers: {
          authorization: `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ To: message.to, From: options.from, Body: message.text }).toString(),
      });
      return { providerId: idOf(body, 'sid') };
    },
  };
}

/** The adapter SMS_PROVIDER names, or null for 'dev' (SMS stay in the outbox for the dev SMS page). */
export function createSmsAdapter(config: SmsConfig | undefined): SmsAdapter | null {
  if (!config || config.provider === 'dev' || !config.apiKey) return null;
  const options = { apiKey: config.apiKey, from: config.from, apiUrl: config.apiUrl };
  return config.provider === 'twilio' ? twilioAdapter(options) : messageBirdAdapter(options);
}
