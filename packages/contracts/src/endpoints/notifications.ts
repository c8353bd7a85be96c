import { okResponseSchema } from '../content';
import {
  notificationSettingsSchema,
  resumeMailSchema,
  savePreferencesSchema,
  unsubscribeChoiceSchema,
  unsubscribeInfoSchema,
  unsubscribeQuerySchema,
} from '../notifications';
import type { EndpointTable } from './endpoint';

/** Notifications: the member's choices per type and channel, resuming mail, and unsubscribe links from mails. */
export const notificationEndpoints = {
  'GET /api/notifications.php': {
    tag: 'notifications',
    summary: 'My notification choices (every type by email and push), why mail stopped, and my address',
    response: notificationSettingsSchema,
  },
  'PUT /api/notifications.php': {
    tag: 'notifications',
    summary: 'Change some of my notification choices',
    body: savePreferencesSchema,
    response: notificationSettingsSchema,
  },
  'POST /api/notifications.php': {
    tag: 'notifications',
    summary: 'Resume mail that stopped (after a bounce: the address is right; after a spam report or an unsubscribe: opt in again)',
    body: resumeMailSchema,
    response: notificationSettingsSchema,
  },
  'GET /api/unsubscribe.php': {
    tag: 'notifications',
    summary: 'What an unsubscribe link from a mail stops (changes nothing)',
    query: unsubscribeQuerySchema,
    response: unsubscribeInfoSchema,
  },
  'POST /api/unsubscribe.php': {
    tag: 'notifications',
    summary: 'RFC 8058 one-click unsubscribe (the List-Unsubscribe header): all mail that is not essential stops',
    query: unsubscribeQuerySchema,
    consumes: ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'],
    response: okResponseSchema,
  },
  'PUT /api/unsubscribe.php': {
    tag: 'notifications',
    summary: "The unsubscribe page's choice: stop this type of mail, or all mail that is not essential",
    query: unsubscribeQuerySchema,
    body: unsubscribeChoiceSchema,
    response: okResponseSchema,
  },
} satisfies EndpointTable;
