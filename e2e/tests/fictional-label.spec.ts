import { randomUUID } from 'node:crypto';
import type { Page, Response } from '@playwright/test';
import sharp from 'sharp';
import { signInToConsole } from './console-staff';
import { expect, JOURNEY_TIMEOUT, test } from './fixtures';
import { newMember } from './members';

/**
 * Fictional profiles carry the site's icon wherever they are shown. A member whose world holds fictional profiles
 * of every kind (a like from one, a match, one she likes, one she blocked, a conversation with one who answered,
 * one among her suggestions) visits every page that shows profiles; on each, every element that shows a profile
 * (`data-profile-id`) of a fictional profile must hold the fictional mark (`data-fictional-mark`: the site's icon,
 * loaded; in the console its badge). Which profiles are fictional is read from the API's answers the pages get
 * (`is_fictional`) and from the profiles the journey made. The test fails with the list of the pages where the
 * mark is missing, or where the fictional profile the page should show was not there.
 *
 * A page that shows profiles gets one line in PAGES (docs/ARCHITECTURE.md, "Where to add a feature").
 */

test.describe.configure({ timeout: JOURNEY_TIMEOUT });

const CLIENT = { 'x-request-type': 'client' };

/** The fictional profiles of the member's world, by the part each plays. */
interface World {
  /** She wrote to it, it answered (by an operator), she wrote again; she likes it and reported its answer. */
  chat: number;
  conversation: number;
  /** She blocked it. */
  blocked: number;
  /** It liked her (the day's auto-like); she likes it back on its page, which makes the match. */
  liker: number;
  /** The first of her suggestions (match finder, swipe game, signup matches, related profiles). */
  suggested: number;
  /** Her report of the answer: its page in the moderation queue, and its own page. */
  queue: string;
  complaint: string;
  /** The country of the member and of the profiles made for her, for the search. */
  country: string;
}

interface PageCheck {
  name: string;
  /** Whose page: the member's, or the console's (staff, desktop only). */
  as: 'member' | 'staff';
  path: (w: World) => string;
  /** The fictional profiles the page must show. */
  shows: (w: World) => number[];
  /** What must be there before the page is read, beyond those profiles. */
  waitFor?: (w: World) => string;
  /** What a member does on the page first (the match modal opens on a like). */
  act?: (page: Page, w: World) => Promise<void>;
}

/** Every page that shows profiles, in the order the journey visits them (the match is made on the liker's page). */
const PAGES: PageCheck[] = [
  { name: 'search results', as: 'member', path: (w) => `/members?gender=nonbinary&country=${w.country}`, shows: (w) => [w.suggested] },
  { name: 'member page', as: 'member', path: (w) => `/members/${w.chat}`, shows: (w) => [w.chat] },
  {
    name: 'related profiles',
    as: 'member',
    path: (w) => `/members/${w.chat}`,
    shows: (w) => [w.suggested],
    waitFor: () => '#related-title',
  },
  { name: 'likes received', as: 'member', path: () => '/likes', shows: (w) => [w.liker] },
  { name: 'liked-by profile page', as: 'member', path: (w) => `/likes/m/${w.liker}`, shows: (w) => [w.liker] },
  {
    name: 'match modal',
    as: 'member',
    path: (w) => `/members/${w.liker}`,
    shows: (w) => [w.liker],
    act: async (page) => page.getByTestId('member-profile').getByTestId('like-button').first().click(),
    waitFor: (w) => `[data-testid="match-modal-body"][data-profile-id="${w.liker}"]`,
  },
  { name: 'likes given', as: 'member', path: () => '/likes/given', shows: (w) => [w.chat, w.liker] },
  { name: 'likes mutual', as: 'member', path: () => '/likes/mutual', shows: (w) => [w.liker] },
  { name: 'match finder', as: 'member', path: () => '/match-finder', shows: (w) => [w.suggested] },
  { name: 'swipe game', as: 'member', path: () => '/swipe-game', shows: (w) => [w.suggested] },
  { name: 'signup matches', as: 'member', path: () => '/signup-matches', shows: (w) => [w.suggested] },
  { name: 'chat list', as: 'member', path: () => '/chats', shows: (w) => [w.chat] },
  {
    name: 'conversation (header and each message of the profile)',
    as: 'member',
    path: (w) => `/chats/${w.conversation}`,
    shows: (w) => [w.chat],
    waitFor: (w) => `[data-testid="chat-message"][data-profile-id="${w.chat}"]`,
  },
  { name: 'blocked members (settings)', as: 'member', path: () => '/settings', shows: (w) => [w.blocked] },
  { name: 'console inbox', as: 'staff', path: () => '/console/inbox', shows: (w) => [w.chat] },
  { name: 'console inbox conversation', as: 'staff', path: (w) => `/console/inbox/${w.conversation}`, shows: (w) => [w.chat] },
  { name: 'console fictional profiles', as: 'staff', path: () => '/console/fictional-profiles', shows: (w) => [w.chat, w.blocked] },
  { name: 'console moderation queue', as: 'staff', path: (w) => w.queue, shows: (w) => [w.chat] },
  { name: 'console moderation item', as: 'staff', path: (w) => w.complaint, shows: (w) => [w.chat] },
];

async function portrait(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 800, height: 1000, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
}

/** Records the ids of every fictional profile in the API's answers to a page (`is_fictional: true`). */
function collectFictional(page: Page, into: Set<number>): void {
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      const id = o.id ?? o.profile_id;
      if (o.is_fictional === true && typeof id === 'number') into.add(id);
      Object.values(o).forEach(walk);
    }
  };
  page.on('response', (response: Response) => {
    if (!response.url().includes('/api/') || !(response.headers()['content-type'] ?? '').includes('json')) return;
    response.json().then(walk, () => {});
  });
}

/**
 * The elements of fictional profiles on the page that show without a mark that shows (an icon that loaded, or the
 * console's badge), each said as `id in <tag class>`.
 */
async function unmarked(page: Page, fictional: Set<number>): Promise<string[]> {
  // The icons ask for their image as the page renders: read once every one of them has come (or failed).
  await page
    .waitForFunction(
      () => [...document.querySelectorAll<HTMLImageElement>('img[data-fictional-mark]')].every((img) => img.complete),
      null,
      {
        timeout: 10_000,
      },
    )
    .catch(() => {});
  return page.evaluate(
    (ids) => {
      const shows = (el: Element) =>
        el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
        (!(el instanceof HTMLImageElement) || el.naturalWidth > 0);
      const out: string[] = [];
      for (const el of document.querySelectorAll<HTMLElement>('[data-profile-id]')) {
        const id = Number(el.dataset.profileId);
        if (!ids.includes(id) || !el.checkVisibility()) continue;
        if (![...el.querySelectorAll('[data-fictional-mark]')].some(shows)) {
          out.push(`${id} in <${el.tagName.toLowerCase()} class="${el.className}">`);
        }
      }
      return out;
    },
    [...fictional],
  );
}

test('every page that shows a fictional profile marks it with the fictional icon', async ({ browser }) => {
  const project = test.info().project.name;
  const country = project === 'phone' ? 'CH' : 'IE';

  // The console (an admin may do what operators and moderators do), at a desktop's width on either project.
  const staffContext = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 800 } });
  const staff = await staffContext.newPage();
  await signInToConsole(staff, 'admin@amora.example');

  // The member: a woman looking for non-binary people, in a country of her own on this run.
  const member = await newMember(browser, 'Fia', project, { asDevice: true, keepAutoLike: true });
  const me = member.page;
  const answers = await me.request.put('/api/complete-signup.php', {
    headers: CLIENT,
    data: { gender: 'woman', looking_for: ['nonbinary'], country, city: country === 'IE' ? 'Cork' : 'Bern' },
  });
  expect(answers.ok(), await answers.text()).toBe(true);
  const siteId = ((await (await me.request.get('/api/settings.php', { headers: CLIENT })).json()) as { site_id: number }).site_id;

  // Four fictional profiles made for her, each with a portrait, of her age, where she lives: her best suggestions.
  // Their names sort first in the console's list of fictional profiles.
  const made: number[] = [];
  for (const [i, name] of ['Aada', 'Aafke', 'Aagot', 'Aake'].entries()) {
    const res = await staff.request.post('/api/console/fictional-profiles', {
      headers: CLIENT,
      data: { site_id: siteId, name, birth_date: '1990-03-03', gender: 'nonbinary', country, about: 'Walks by the sea.' },
    });
    expect(res.ok(), await res.text()).toBe(true);
    const id = ((await res.json()) as { profile: { id: number } }).profile.id;
    const photo = await staff.request.post(`/api/console/fictional-profiles/${id}/photos`, {
      headers: CLIENT,
      multipart: {
        photo: { name: `${name}.jpg`, mimeType: 'image/jpeg', buffer: await portrait(['#2a6f97', '#a44a3f', '#5b8e55', '#7a5c99'][i]) },
      },
    });
    expect(photo.ok(), await photo.text()).toBe(true);
    made.push(id);
  }

  // The day's auto-like: a fictional profile likes her (one of those, or another). The others play the other parts.
  const autoLike = await me.request.get('/api/auto-like.php', { headers: CLIENT });
  const liker = ((await autoLike.json()) as { profile: { id: number; is_fictional: boolean } | null }).profile;
  expect(liker?.is_fictional, 'the auto-like came from a fictional profile').toBe(true);
  const likerId = (liker as { id: number }).id;
  const [chat, blocked] = made.filter((id) => id !== likerId);

  // She likes one, blocks another and writes to the first; an operator answers it; she writes again.
  expect((await me.request.post('/api/like.php', { headers: CLIENT, data: { profile_id: chat, source: 'profile' } })).ok()).toBe(true);
  expect((await me.request.post('/api/block.php', { headers: CLIENT, data: { profile_id: blocked } })).ok()).toBe(true);
  const write = async (body: string) => {
    const sent = await me.request.post('/api/messages.php', { headers: CLIENT, data: { profile: chat, body, client_id: randomUUID() } });
    expect(sent.ok(), await sent.text()).toBe(true);
    return ((await sent.json()) as { message: { conversation_id: number } }).message.conversation_id;
  };
  const conversation = await write('Hi Aada, do you walk there every day?');
  expect((await staff.request.post(`/api/console/inbox/${conversation}/claim`, { headers: CLIENT })).ok()).toBe(true);
  const answered = await staff.request.post(`/api/console/inbox/${conversation}/messages`, {
    headers: CLIENT,
    data: { text: 'Most mornings, before work!' },
  });
  expect(answered.ok(), await answered.text()).toBe(true);
  const answer = ((await answered.json()) as { message_id: number }).message_id;
  await write('Lovely. Which beach?');

  // She reports the answer: the moderation queue shows the fictional profile too.
  const report = await me.request.post('/api/chat-report.php', {
    headers: CLIENT,
    data: { conversation, message: answer, reason: 'other', text: 'Checking the label.' },
  });
  expect(report.ok(), await report.text()).toBe(true);
  const reference = ((await report.json()) as { reference: string }).reference;
  let item: { kind: string; id: number } | undefined;
  let queuePage = 0;
  while (!item && queuePage < 20) {
    queuePage++;
    const queue = await staff.request.get(`/api/console/moderation/queue?page=${queuePage}`, { headers: CLIENT });
    item = ((await queue.json()) as { items: { kind: string; id: number; reference: string | null }[] }).items.find(
      (i) => i.reference === reference,
    );
  }
  expect(item, `complaint ${reference} in the moderation queue`).toBeDefined();

  // Her first suggestion is a fictional profile: the ones before it are skipped, as she might (and the liker, whom
  // she likes back later: a profile she likes is no longer suggested).
  let suggested: number | null = null;
  for (let i = 0; i < 40 && suggested === null; i++) {
    const next = (await (await me.request.get('/api/match-finder.php', { headers: CLIENT })).json()) as {
      profile: { id: number; is_fictional: boolean } | null;
    };
    expect(next.profile, 'a suggestion left').not.toBeNull();
    const top = next.profile as { id: number; is_fictional: boolean };
    if (top.is_fictional && top.id !== likerId) suggested = top.id;
    else
      expect((await me.request.post('/api/match-finder.php', { headers: CLIENT, data: { profile_id: top.id, action: 'skip' } })).ok()).toBe(
        true,
      );
  }
  expect(suggested, 'a fictional profile among her first suggestions').not.toBeNull();

  const world: World = {
    chat,
    conversation,
    blocked,
    liker: likerId,
    suggested: suggested as number,
    queue: queuePage > 1 ? `/console/moderation?page=${queuePage}` : '/console/moderation',
    complaint: `/console/moderation/items/${item?.kind}/${item?.id}`,
    country,
  };
  const fictional = new Set<number>([...made, likerId, world.suggested]);
  collectFictional(me, fictional);
  collectFictional(staff, fictional);

  const problems: string[] = [];
  for (const check of PAGES) {
    if (check.as === 'staff' && project === 'phone') continue;
    const page = check.as === 'member' ? me : staff;
    await page.goto(check.path(world));
    if (check.act) await check.act(page, world);
    for (const id of check.shows(world)) {
      // The first that shows: a phone's open chat hides the list, which names the partner too.
      const shown = await expect(page.locator(`[data-profile-id="${id}"]:visible`).first())
        .toBeVisible({ timeout: 20_000 })
        .then(
          () => true,
          () => false,
        );
      if (!shown) problems.push(`${check.name} (${check.path(world)}): fictional profile ${id} is not shown`);
    }
    if (check.waitFor) {
      const there = await expect(page.locator(`${check.waitFor(world)}:visible`).first())
        .toBeVisible({ timeout: 20_000 })
        .then(
          () => true,
          () => false,
        );
      if (!there) problems.push(`${check.name} (${check.path(world)}): ${check.waitFor(world)} is not shown`);
    }
    for (const missing of await unmarked(page, fictional)) problems.push(`${check.name} (${check.path(world)}): no icon on ${missing}`);
  }
  expect(problems, 'pages where a fictional profile is shown without its icon').toEqual([]);
  await staffContext.close();
  await me.context().close();
});
