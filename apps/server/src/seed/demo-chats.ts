import { type Database, DEMO_MEMBERS, type DemoChatTexts, loadDemoChatTexts, profiles, sites, users } from '@amora/db';
import { and, asc, eq, isNull, ne, or } from 'drizzle-orm';
import { type DemoConversation, type DemoLine, writeDemoConversation } from '../modules/chat/chat-demo.service';
import { type PhotoContext, processChatPhoto } from '../modules/photos/photos.service';
import { type ChatPicture, drawChatPicture } from './chat-pictures';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Conversations between other demo members on each site, beside the demo login's. */
const OTHER_PAIRS = 6;

interface Candidate {
  id: number;
  userId: number | null;
  isFictional: boolean;
  language: string | null;
}

/** `lines` written in turn by `a` and `b` (a first), from `start` on, a few minutes apart. */
function turns(a: number, b: number, lines: string[], start: number, gap = 6 * MINUTE) {
  return lines.map((body, i) => ({ from: i % 2 === 0 ? a : b, body, at: new Date(start + i * gap) }));
}

/**
 * The demo data's chats (after the demo members exist): for each demo login a history it has read, a conversation
 * whose last message it has not read, a new one with two unread messages, and the messages it wrote to a
 * fictional profile, unanswered (they wait for the operator queue: nothing is written as if that profile had
 * answered); beside those a few conversations between other demo members. Every message is written by a
 * member with an account, through the chat service, so sequences and unread counts are those of real sends; it
 * costs nothing (see writeDemoConversation). The demo login's chats are in its language, the others in their
 * starter's. Beside the texts: in the read history the login sends a picture of the dunes it talks about (which
 * the other member opened) and a coffee as a gift; in yesterday's chat the other member sends a picture of the
 * cat they mention, not opened yet, so it shows blurred until the login asks to see it. The pictures are drawn
 * (chat-pictures.ts) and go through the chat's photo pipeline like an upload. The number of conversations made.
 */
export async function seedDemoChats(ctx: PhotoContext, now: Date): Promise<number> {
  const db: Database = ctx.db;
  const texts = loadDemoChatTexts();
  const drawn = new Map<ChatPicture, Buffer>();
  /** A picture sent by `from`, through the photo pipeline (its files under the sender's media). */
  const photoLine = async (from: Candidate, picture: ChatPicture, at: Date, revealedAt?: Date): Promise<DemoLine[]> => {
    if (from.userId === null) return [];
    if (!drawn.has(picture)) drawn.set(picture, await drawChatPicture(picture));
    const photo = await processChatPhoto(ctx, { userId: from.userId, profileId: from.id }, drawn.get(picture) as Buffer);
    return [{ from: from.id, at, photo, ...(revealedAt ? { revealedAt } : {}) }];
  };
  const textsFor = (language: string | null): DemoChatTexts => texts[language ?? 'en'] ?? texts.en;
  const t = now.getTime();
  let made = 0;

  for (const demo of DEMO_MEMBERS) {
    const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.domain, demo.site));
    const [login] = await db
      .select({ id: profiles.id, userId: profiles.userId, isFictional: profiles.isFictional, language: users.language })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(eq(users.email, demo.email));
    if (!site || !login) continue;
    const candidates: Candidate[] = await db
      .select({ id: profiles.id, userId: profiles.userId, isFictional: profiles.isFictional, language: users.language })
      .from(profiles)
      .leftJoin(users, eq(users.id, profiles.userId))
      .where(
        and(
          eq(profiles.siteId, site.id),
          eq(profiles.status, 'active'),
          eq(profiles.isInvisible, false),
          ne(profiles.id, login.id),
          or(isNull(profiles.userId), eq(users.status, 'confirmed')),
        ),
      )
      .orderBy(asc(profiles.id));
    const members = candidates.filter((c) => !c.isFictional);
    const fictional = candidates.find((c) => c.isFictional);
    if (members.length < 3) continue;
    const [a, b, c, ...others] = members;
    const mine = textsFor(login.language);

    // Read: a few days ago, all of it seen; the login's picture of the dunes after its answer about them (opened
    // by the other member a minute later), and a coffee as a gift after "You bring the coffee".
    const history = turns(a.id, login.id, mine.scripts[0], t - 3 * DAY);
    const dunesAt = new Date(history[1].at.getTime() + MINUTE);
    const history2 = [
      ...history.slice(0, 2),
      ...(await photoLine(login, 'dunes', dunesAt, new Date(dunesAt.getTime() + MINUTE))),
      ...history.slice(2),
      { from: login.id, gift: 'coffee' as const, at: new Date((history.at(-1) as DemoLine).at.getTime() + 2 * MINUTE) },
    ];
    // Yesterday: the other member's picture of their cat after they mention her, not opened and not read yet.
    const yesterday = turns(b.id, login.id, mine.scripts[1], t - DAY - 4 * HOUR);
    const catAt = new Date((yesterday.at(-1) as DemoLine).at.getTime() + MINUTE);
    const conversations: DemoConversation[] = [
      { siteId: site.id, starter: a.id, other: login.id, lines: history2, readBy: [login.id, a.id] },
      {
        siteId: site.id,
        starter: b.id,
        other: login.id,
        lines: [...yesterday, ...(await photoLine(b, 'cat', catAt))],
        readBy: [b.id],
      },
      // A new contact an hour ago: two messages, unread.
      {
        siteId: site.id,
        starter: c.id,
        other: login.id,
        lines: mine.openers.map((body, i) => ({ from: c.id, body, at: new Date(t - HOUR + i * MINUTE) })),
        readBy: [c.id],
      },
    ];
    // Written to a fictional profile by the demo login only; the operator queue has not answered.
    if (fictional) {
      conversations.push({
        siteId: site.id,
        starter: login.id,
        other: fictional.id,
        lines: mine.toFictional.map((body, i) => ({ from: login.id, body, at: new Date(t - 20 * HOUR + i * 2 * MINUTE) })),
        readBy: [login.id],
      });
    }
    // Between other demo members, in the starter's language; the last message unread by the other.
    for (let i = 0; i < OTHER_PAIRS && 2 * i + 1 < others.length; i++) {
      const [x, y] = [others[2 * i], others[2 * i + 1]];
      const script = textsFor(x.language).scripts[i % 2];
      conversations.push({
        siteId: site.id,
        starter: x.id,
        other: y.id,
        lines: turns(x.id, y.id, script, t - (i + 2) * DAY),
        readBy: [x.id],
      });
    }
    for (const conversation of conversations) {
      await writeDemoConversation(ctx, conversation);
      made++;
    }
  }
  return made;
}
