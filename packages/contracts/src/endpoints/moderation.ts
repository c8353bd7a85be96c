import { okResponseSchema } from '../content';
import {
  acknowledgeNoticesSchema,
  consolePhotoParamsSchema,
  moderationActionResultSchema,
  moderationActionSchema,
  moderationItemParamsSchema,
  moderationItemSchema,
  moderationNoticesSchema,
  moderationQueueQuerySchema,
  moderationQueueSchema,
  sanctionParamsSchema,
  undoSanctionResultSchema,
} from '../moderation';
import { type EndpointTable, unchecked } from './endpoint';

/**
 * Moderation: the console's queue of reports, complaints and photos waiting, one item in its context, what a
 * moderator does about it, and lifting a sanction; and the member's side: a warning to acknowledge, and that
 * their reports were handled.
 */
export const moderationEndpoints = {
  'GET /api/console/moderation/queue': {
    tag: 'console',
    summary: 'The moderation queue: reports, complaints and photos waiting (or handled), oldest first',
    query: moderationQueueQuerySchema,
    response: moderationQueueSchema,
  },
  'GET /api/console/moderation/items/:kind/:id': {
    tag: 'console',
    summary: 'One item of the queue in its context, with the reported member’s sanctions',
    params: moderationItemParamsSchema,
    response: moderationItemSchema,
  },
  'POST /api/console/moderation/items/:kind/:id/actions': {
    tag: 'console',
    summary: 'Act on an item: dismiss, remove the message or photo, approve the photo, warn, suspend or ban',
    params: moderationItemParamsSchema,
    body: moderationActionSchema,
    response: moderationActionResultSchema,
  },
  'POST /api/console/moderation/sanctions/:id/undo': {
    tag: 'console',
    summary: 'Lift a sanction',
    params: sanctionParamsSchema,
    response: undoSanctionResultSchema,
  },
  'GET /api/console/moderation/photos/:id': {
    tag: 'console',
    summary: 'A member’s photo, whatever its status, for moderation',
    params: consolePhotoParamsSchema,
    response: unchecked('binary', 'image/webp'),
  },
  'GET /api/moderation.php': {
    tag: 'profiles',
    summary: 'What moderation tells me: a warning to acknowledge, my reports that were handled',
    response: moderationNoticesSchema,
  },
  'POST /api/moderation.php': {
    tag: 'profiles',
    summary: 'Acknowledge the warning, or the notice of handled reports',
    body: acknowledgeNoticesSchema,
    response: okResponseSchema,
  },
} satisfies EndpointTable;
