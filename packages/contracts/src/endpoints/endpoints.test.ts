import { describe, expect, it } from 'vitest';
import { accountEndpoints } from './accounts';
import { consoleMailingEndpoints } from './campaigns';
import { chatEndpoints } from './chat';
import { consoleStaffEndpoints } from './console';
import { dataExportEndpoints } from './data-export';
import { consoleInboxEndpoints } from './inbox';
import { endpoints } from './index';
import { mailEndpoints } from './mail';
import { memberEndpoints } from './members';
import { moderationEndpoints } from './moderation';
import { notificationEndpoints } from './notifications';
import { paymentEndpoints } from './payments';
import { consoleReportEndpoints } from './reports';
import { siteEndpoints } from './site';
import { siteAdminEndpoints } from './site-admin';
import { consoleSupportEndpoints } from './support';

describe('the endpoints table', () => {
  it('has each call in one area only (a key in two areas would be overwritten)', () => {
    const areas = [
      siteEndpoints,
      accountEndpoints,
      memberEndpoints,
      chatEndpoints,
      paymentEndpoints,
      mailEndpoints,
      notificationEndpoints,
      dataExportEndpoints,
      consoleStaffEndpoints,
      consoleSupportEndpoints,
      moderationEndpoints,
      consoleInboxEndpoints,
      siteAdminEndpoints,
      consoleReportEndpoints,
      consoleMailingEndpoints,
    ];
    const all = areas.flatMap((area) => Object.keys(area));
    expect(all.length).toBe(Object.keys(endpoints).length);
  });

  it('says why an answer goes out without a schema', () => {
    const unchecked = Object.entries(endpoints)
      .filter(([, entry]) => 'unchecked' in entry.response)
      .map(([key, entry]) => `${key}: ${(entry.response as { unchecked: string }).unchecked}`);
    expect(unchecked).toEqual([
      'GET /api/assets/paymentmethod/:name.svg: binary',
      'GET /api/assets/app-icon/:name.png: binary',
      'GET /api/activate.php: redirect',
      'GET /api/lander-photo.php: binary',
      'GET /api/photo.php: binary',
      'GET /api/chat-photo.php: binary',
      'GET /api/live: websocket',
      'GET /api/data-export.php?download=1: binary',
      'GET /api/data-export.php?download=latest: binary',
      'GET /api/console/members/:userId/photos/:photoId: binary',
      'GET /api/console/moderation/photos/:id: binary',
      'GET /api/console/inbox/:conversationId/photos/:photoId: binary',
      'GET /api/console/live: event-stream',
      'GET /api/console/fictional-profiles/:id/photo: binary',
      'GET /api/console/reports.csv: binary',
    ]);
  });

  it('declares the path parameters each path has', () => {
    for (const [key, entry] of Object.entries(endpoints)) expect('params' in entry, key).toBe(key.includes('/:'));
  });
});
