import { okResponseSchema } from '../content';
import {
  creditAdjustedSchema,
  creditAdjustmentSchema,
  memberDetailSchema,
  memberLedgerSchema,
  memberOrderParamsSchema,
  memberParamsSchema,
  memberPhotoParamsSchema,
  memberPhotoQuerySchema,
  memberSearchQuerySchema,
  memberSearchSchema,
  pageQuerySchema,
  refundedSchema,
  refundSchema,
  supportReasonSchema,
} from '../support';
import { type EndpointTable, unchecked } from './endpoint';

/**
 * Member support in the console: find a member on any site, see what they see (support, moderators, admins), and
 * act for them (support and admins; refunds above the limit and erasure admins only). Every action is audited.
 */
export const consoleSupportEndpoints = {
  'GET /api/console/members': {
    tag: 'console',
    summary: 'Find members on every site by email, account id, profile id or profile name',
    query: memberSearchQuerySchema,
    response: memberSearchSchema,
  },
  'GET /api/console/members/:userId': {
    tag: 'console',
    summary: "A member's account, profile, orders, sessions, reports, sanctions, direct debit and login lockout (read only)",
    params: memberParamsSchema,
    response: memberDetailSchema,
  },
  'GET /api/console/members/:userId/ledger': {
    tag: 'console',
    summary: "A member's credits ledger, newest first",
    params: memberParamsSchema,
    query: pageQuerySchema,
    response: memberLedgerSchema,
  },
  'GET /api/console/members/:userId/photos/:photoId': {
    tag: 'console',
    summary: "One of a member's photos as WebP, whatever its status (console only)",
    params: memberPhotoParamsSchema,
    query: memberPhotoQuerySchema,
    response: unchecked('binary', 'image/webp'),
  },
  'POST /api/console/members/:userId/resend-activation': {
    tag: 'console',
    summary: 'Send the activation mail again (an unconfirmed account)',
    params: memberParamsSchema,
    response: okResponseSchema,
  },
  'POST /api/console/members/:userId/clear-lockout': {
    tag: 'console',
    summary: "Clear the member's login lockout (wrong passwords counted for the account)",
    params: memberParamsSchema,
    response: okResponseSchema,
  },
  'POST /api/console/members/:userId/credits': {
    tag: 'console',
    summary: 'Add or take credits, with a reason (a ledger row; never below zero)',
    params: memberParamsSchema,
    body: creditAdjustmentSchema,
    response: creditAdjustedSchema,
  },
  'POST /api/console/members/:userId/orders/:orderId/refund': {
    tag: 'console',
    summary: 'Refund (part of) a paid order through the payment provider; support up to the limit, admins above it',
    params: memberOrderParamsSchema,
    body: refundSchema,
    response: refundedSchema,
  },
  'POST /api/console/members/:userId/unblock-direct-debit': {
    tag: 'console',
    summary: 'Allow direct debit again after a chargeback blocked it',
    params: memberParamsSchema,
    body: supportReasonSchema,
    response: okResponseSchema,
  },
  'POST /api/console/members/:userId/delete': {
    tag: 'console',
    summary: "Delete the account as the member's own deletion does (14 days to come back by the mailed link)",
    params: memberParamsSchema,
    body: supportReasonSchema,
    response: okResponseSchema,
  },
  'POST /api/console/members/:userId/erase': {
    tag: 'console',
    summary: 'Erase the account and its data now (a GDPR erasure request; admins only)',
    params: memberParamsSchema,
    body: supportReasonSchema,
    response: okResponseSchema,
  },
} satisfies EndpointTable;
