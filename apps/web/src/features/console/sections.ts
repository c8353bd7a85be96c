import type { StaffRole } from '@amora/contracts';
import type { ComponentType } from 'react';

/**
 * The console's sections: each one a page under /console, a link in its nav and a card on its home. A section
 * names the roles that see it (an admin sees every section); its page loads only when it is opened.
 */
export interface ConsoleSection {
  /** The page's path under /console, without a leading slash ('staff', 'moderation/queue'). */
  path: string;
  /** The nav label's key, with its namespace ('console:nav.staff'). */
  label: string;
  /** A line on the home's card, a key with its namespace ('console:home.staff'). */
  description: string;
  /** Who sees it besides admins. */
  roles: readonly StaffRole[];
  /** The page: a module exporting its component as `Component`. */
  page: () => Promise<{ Component: ComponentType }>;
}

export const CONSOLE_SECTIONS: readonly ConsoleSection[] = [
  {
    path: 'staff',
    label: 'console:nav.staff',
    description: 'console:home.staff',
    roles: ['admin'],
    page: () => import('./staff/staff-page'),
  },
  {
    path: 'audit',
    label: 'console:nav.audit',
    description: 'console:home.audit',
    roles: ['admin'],
    page: () => import('./audit/audit-page'),
  },
  {
    path: 'moderation',
    label: 'console:nav.moderation',
    description: 'console:home.moderation',
    roles: ['moderator'],
    page: () => import('./moderation/moderation-page'),
  },
  {
    path: 'members',
    label: 'console:nav.support',
    description: 'console:home.support',
    roles: ['moderator', 'support'],
    page: () => import('./support/support-page'),
  },
  {
    path: 'sessions',
    label: 'console:nav.sessions',
    description: 'console:home.sessions',
    roles: ['moderator', 'support', 'operator'],
    page: () => import('./sessions/sessions-page'),
  },
  {
    path: 'inbox',
    label: 'console:nav.inbox',
    description: 'console:home.inbox',
    roles: ['operator'],
    page: () => import('./inbox/inbox-page'),
  },
  {
    path: 'fictional-profiles',
    label: 'console:nav.fictional',
    description: 'console:home.fictional',
    roles: ['operator'],
    page: () => import('./inbox/fictional-profiles-page'),
  },
  {
    path: 'sites',
    label: 'console:nav.sites',
    description: 'console:home.sites',
    roles: [],
    page: () => import('./sites/sites-page'),
  },
  {
    path: 'discount-codes',
    label: 'console:nav.codes',
    description: 'console:home.codes',
    roles: [],
    page: () => import('./sites/discount-codes-page'),
  },
  {
    path: 'reports',
    label: 'console:nav.reports',
    description: 'console:home.reports',
    roles: [],
    page: () => import('./reports/reports-page'),
  },
  {
    path: 'mailings',
    label: 'console:nav.mailings',
    description: 'console:home.mailings',
    roles: ['support'],
    page: () => import('./mailings/mailings-page'),
  },
];

/** The sections a staff member of this role sees. */
export function sectionsFor(role: StaffRole): ConsoleSection[] {
  return CONSOLE_SECTIONS.filter((section) => role === 'admin' || section.roles.includes(role));
}
