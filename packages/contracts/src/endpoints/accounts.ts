import {
  activateQuerySchema,
  deleteAccountResponseSchema,
  deleteAccountSchema,
  deleteDiscountRequestSchema,
  discountOfferResponseSchema,
  languageSchema,
  loginSchema,
  mailChangeConfirmedSchema,
  mailChangeRequestSchema,
  resetDoSchema,
  resetRequestSchema,
  signupSchema,
  tokenSchema,
  userResponseSchema,
} from '../accounts';
import { okResponseSchema } from '../content';
import { pushSubscribeSchema } from '../push';
import { type EndpointTable, unchecked } from './endpoint';

/** Accounts: signup, login, activation, password reset, email change, deletion. */
export const accountEndpoints = {
  'GET /api/user.php': { tag: 'accounts', summary: 'The logged-in member (spec §3 user), or null', response: userResponseSchema },
  'POST /api/user.php': { tag: 'accounts', summary: 'Log in', body: loginSchema, response: userResponseSchema },
  'PUT /api/user.php': {
    tag: 'accounts',
    summary: 'Save the language (on a locale change while logged in)',
    body: languageSchema,
    response: okResponseSchema,
  },
  'DELETE /api/user.php': {
    tag: 'accounts',
    summary: 'Delete the account (reactivation possible for 14 days)',
    body: deleteAccountSchema,
    response: deleteAccountResponseSchema,
  },
  /**
   * Spec §7's push call keeps its path: the query `push=1` tells it from the login (the server routes on it; a
   * key with a query is a variant of the path's call, plugins/endpoints.ts).
   */
  'POST /api/user.php?push=1': {
    tag: 'push',
    summary: "Store this device's push subscription (again at every app start), or drop it with {subscription: null, endpoint}",
    body: pushSubscribeSchema,
    response: okResponseSchema,
  },
  'GET /api/logout.php': { tag: 'accounts', summary: 'Log out', response: okResponseSchema },
  'POST /api/signup.php': { tag: 'accounts', summary: 'Sign up', body: signupSchema, response: userResponseSchema },
  'GET /api/activate.php': {
    tag: 'accounts',
    summary: 'Activation link from the email; redirects to /activate/done or /activate/error',
    query: activateQuerySchema,
    response: unchecked('redirect', '302 to /activate/done or /activate/error'),
  },
  'POST /api/activation.php': { tag: 'accounts', summary: 'Send the activation email again', response: okResponseSchema },
  'POST /api/password-reset.php': {
    tag: 'accounts',
    summary: 'Ask for a password reset link (same answer for any address)',
    body: resetRequestSchema,
    response: okResponseSchema,
  },
  'PUT /api/password-reset.php': {
    tag: 'accounts',
    summary: 'Set a new password with the emailed link',
    body: resetDoSchema,
    response: userResponseSchema,
  },
  'POST /api/mail-change.php': {
    tag: 'accounts',
    summary: 'Ask to change the email address (confirmation link to the new one)',
    body: mailChangeRequestSchema,
    response: okResponseSchema,
  },
  'PUT /api/mail-change.php': {
    tag: 'accounts',
    summary: 'Confirm the new email address with the emailed link',
    body: tokenSchema,
    response: mailChangeConfirmedSchema,
  },
  'POST /api/delete-discount.php': {
    tag: 'accounts',
    summary: "The site's discount offered to a member deleting their account (with the password), once per member",
    body: deleteDiscountRequestSchema,
    response: discountOfferResponseSchema,
  },
  'POST /api/reactivate.php': {
    tag: 'accounts',
    summary: 'Reactivate a deleted account with the emailed link',
    body: tokenSchema,
    response: userResponseSchema,
  },
} satisfies EndpointTable;
