import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  BlockedProfilesResponse,
  ChatsResponse,
  CompanyInfo,
  DataExportStatus,
  DiscountCodeView,
  LanderData,
  LikesResponse,
  RegionsResponse,
  Settings,
  TimeBonusResponse,
  User,
} from '@amora/contracts';
import { HttpResponse, http, ws } from 'msw';
import { setupServer } from 'msw/node';
import { onTestFinished } from 'vitest';
import { answer } from './contract';
import { companyInfoFixture, likesFixture, regionsFixture, settingsFixture } from './fixtures';
import { landerProfiles } from './landers';

const catalogues = join(import.meta.dirname, '..', '..', '..', '..', 'packages', 'i18n', 'locales');

/**
 * Handlers of the calls the shell and the cached catalogues make, each answering through its contract's response schema. A test
 * changes an answer with `server.use(answers.user(userFixture()))`; answers go back to these after each test.
 */
export const answers = {
  settings: (settings: Settings = settingsFixture()) => answer('GET /api/settings.php', () => settings),
  user: (user: User | null = null) => answer('GET /api/user.php', () => ({ user })),
  likes: (likes: LikesResponse = likesFixture()) => answer('GET /api/likes.php', () => likes),
  chats: (chats: ChatsResponse = { chats: [], num_unread_messages: 0 }) => answer('GET /api/chats.php', () => chats),
  autoLike: () => answer('GET /api/auto-like.php', () => ({ profile: null })),
  interests: (interests: string[] = settingsFixture().interests) => answer('GET /api/interests.php', () => ({ interests })),
  regions: (regions: RegionsResponse = regionsFixture()) => answer('GET /api/regions.php', () => regions),
  companyInfo: (company: CompanyInfo = companyInfoFixture()) => answer('GET /api/companyinfo.php', () => company),
  /** The time bonus (none by default) and the welcome discount (none by default; asked for once there is no time bonus). */
  timeBonus: (bonus: TimeBonusResponse = { is_visible: false, seconds_left: 0, discount: null }) =>
    answer('GET /api/timebonus.php', () => bonus),
  /** The members I blocked (the settings page's list; none by default). */
  blocked: (profiles: BlockedProfilesResponse['profiles'] = []) => answer('GET /api/blocks.php', () => ({ profiles })),
  /** The copy of my data (the settings page's card; none asked for by default). */
  dataExport: (status: DataExportStatus = { status: 'none', requested_at: null, expires_at: null }) =>
    answer('GET /api/data-export.php', () => status),
  /** What moderation tells the member (nothing by default). */
  moderationNotices: () => answer('GET /api/moderation.php', () => ({ warning: null, handled_reports: [] })),
  /** A lander's data (the site's niche and twelve profiles by default). */
  lander: (data: LanderData = { niche: settingsFixture().niche, profiles: landerProfiles(12) }) =>
    answer('GET /api/lander.php', () => data),
  welcomeDiscount: (discount: DiscountCodeView | null = null) =>
    answer('GET /api/discountcode.php', ({ request }) =>
      new URL(request.url).searchParams.get('welcome') === 'true' ? { discount } : undefined,
    ),
};

/**
 * The live channel's WebSocket (/api/live): by default it accepts the connection and says nothing, so pages poll
 * as without it; a test sends frames through `live.addEventListener('connection', ({ client }) => …)`.
 */
export const live = ws.link('*/api/live');

/** The catalogue files lib/i18n.ts fetches (the build serves them as hashed JSON files; here from packages/i18n). */
const catalogueFiles = http.get('*/packages/i18n/locales/:locale/:file', async ({ params }) => {
  const file = join(catalogues, String(params.locale), String(params.file));
  return new HttpResponse(await readFile(file), { headers: { 'content-type': 'application/json' } });
});

export const server = setupServer(
  answers.settings(),
  answers.user(),
  answers.likes(),
  answers.chats(),
  live.addEventListener('connection', () => {}),
  answers.autoLike(),
  answers.interests(),
  answers.regions(),
  answers.companyInfo(),
  answers.timeBonus(),
  answers.welcomeDiscount(),
  answers.blocked(),
  answers.dataExport(),
  answers.moderationNotices(),
  answers.lander(),
  catalogueFiles,
);

/** The API paths called from now until the end of the test, in order ('GET /api/user.php'). */
export function recordCalls(): string[] {
  const calls: string[] = [];
  const listener = ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/api/')) calls.push(`${request.method} ${url.pathname}`);
  };
  server.events.on('request:start', listener);
  onTestFinished(() => server.events.removeListener('request:start', listener));
  return calls;
}
