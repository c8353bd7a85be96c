import {
  auditPageSchema,
  auditQuerySchema,
  createdStaffSchema,
  createStaffSchema,
  devConsoleCodeSchema,
  staffIdParamsSchema,
  staffListSchema,
  staffLoginSchema,
  staffLoginStepSchema,
  staffMeSchema,
  staffSchema,
  staffSecondFactorSchema,
  staffSessionParamsSchema,
  staffSessionsSchema,
  updateStaffSchema,
} from '../console';
import { okResponseSchema } from '../content';
import type { EndpointTable } from './endpoint';

/**
 * The operator console's own calls: staff sign in with a password and an authenticator's code (their own cookie,
 * never a member's), see and end their sessions; admins manage staff and read the audit log.
 */
export const consoleStaffEndpoints = {
  'POST /api/console/login': {
    tag: 'console',
    summary: 'Staff sign-in, first step: the password (then the authenticator code, or setting the authenticator up)',
    body: staffLoginSchema,
    response: staffLoginStepSchema,
  },
  'POST /api/console/login/second-factor': {
    tag: 'console',
    summary: 'Staff sign-in, second step: a code of the authenticator or a recovery code',
    body: staffSecondFactorSchema,
    response: staffLoginStepSchema,
  },
  'POST /api/console/logout': { tag: 'console', summary: 'Staff sign-out', response: okResponseSchema },
  'GET /api/console/me': { tag: 'console', summary: 'The signed-in staff member, or null', response: staffMeSchema },
  'GET /api/console/sessions': { tag: 'console', summary: 'My console sessions', response: staffSessionsSchema },
  'DELETE /api/console/sessions/:id': {
    tag: 'console',
    summary: 'End one of my console sessions',
    params: staffSessionParamsSchema,
    response: okResponseSchema,
  },
  'GET /api/console/staff': { tag: 'console', summary: 'Every staff member (admin)', response: staffListSchema },
  'POST /api/console/staff': {
    tag: 'console',
    summary: 'Add a staff member (admin): answers their first password, once',
    body: createStaffSchema,
    response: createdStaffSchema,
    created: true,
  },
  'PUT /api/console/staff/:id': {
    tag: 'console',
    summary: 'Change a staff member (admin): name, role, language, active; or reset their authenticator',
    params: staffIdParamsSchema,
    body: updateStaffSchema,
    response: staffSchema,
  },
  'GET /api/dev/console-code.php': {
    tag: 'development',
    summary: "The demo staff's current authenticator code (their secret is the demo data's)",
    dev: true,
    hide: true,
    response: devConsoleCodeSchema,
  },
  'GET /api/console/audit': {
    tag: 'console',
    summary: 'The audit log, newest first (admin); read only',
    query: auditQuerySchema,
    response: auditPageSchema,
  },
} satisfies EndpointTable;
