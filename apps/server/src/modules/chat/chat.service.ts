import {
  CHAT_ERRORS,
  CHAT_HISTORY_DAYS,
  type ChatBlock,
  FREE_CONVERSATION_LIMIT,
  type GiftId,
  type SendMessageResponse,
} from '@amora/contracts';
import type { Executor } from '@amora/db';
import type { AppContext } from '../../context';
import { type Batches, createBatches, reportBatchFailure } from '../../lib/batches';
import { badRequest, HttpError, notFound } from '../../lib/errors';
import { type DbContext, dbOf, inUnitOfWork, withTransaction } from '../../lib/transaction';
import { CreditKeyTaken, credit, spend, spendMany } from '../credits/credits.service';
import { noticeMessage, noticeMessages } from '../notifications/notifications.service';
import { processChatPhoto, removeChatPhoto } from '../photos/photos.service';
import type { Auth } from '../sessions/sessions.service';
import { chatBlock, presentMessage } from './chat.presenter';
import {
  appendMessage,
  appendMessages,
  type ConversationRow,
  countStarted,
  deleteConversationsOf,
  findConversation,
  findCredits,
  findMessageByClientId,
  findPairConversation,
  findPartner,
  insertConversation,
  listMessagesAround,
  lockConversation,
  lockConversationsForSends,
  lockConversationWithPartner,
  lockStarts,
  type MessageRow,
  markRead,
  markRejected,
  type PartnerRow,
  sideOf,
  sumUnread,
} from './chat.repository';

const DAY_MS = 86_400_000;

/** The oldest moment whose messages are still shown (spec §9: older chat history is hidden for privacy). */
export const historySince = (now: Date) => new Date(now.getTime() - CHAT_HISTORY_DAYS * DAY_MS);

export const partnerOf = (conversation: ConversationRow, profileId: number) =>
  conversation.profileLowId === profileId ? conversation.profileHighId : conversation.profileLowId;

export const notYours = () => notFound('This conversation could not be found');

/** The errors of spec §4 for a chat whose rules refuse a send now. */
function refusal(block: ChatBlock, partner: Pick<PartnerRow, 'name'>): HttpError | null {
  switch (block) {
    case 'blocked_by_partner':
      return new HttpError(403, CHAT_ERRORS.blockedByPartner, `You are blocked by ${partner.name}`, {
        name: partner.name,
        message_key: 'chat.errors.blockedByPartner',
      });
    case 'blocked_partner':
      return new HttpError(403, CHAT_ERRORS.blockedPartner, `You blocked ${partner.name}`, {
        name: partner.name,
        message_key: 'chat.errors.blockedPartner',
      });
    case 'partner_unconfirmed':
      return new HttpError(
        409,
        CHAT_ERRORS.partnerUnconfirmed,
        `${partner.name} can be answered once they have confirmed their email address`,
        {
          name: partner.name,
          message_key: 'chat.errors.partnerUnconfirmed',
        },
      );
    case 'partner_gone':
      return new HttpError(409, CHAT_ERRORS.partnerGone, 'This member is no longer available', { message_key: 'chat.errors.partnerGone' });
    // My own unconfirmed address stops the other side's answers, not my messages.
    case 'own_unconfirmed':
      return null;
  }
}

/** Who sends: a signed-in member, or an account just activated (its signup message). */
export type Sender = Pick<Auth, 'user' | 'profile'>;

export interface SendInput {
  conversation?: number;
  profile?: number;
  /** A text message's text, or… */
  body?: string;
  /** …a gift of the catalogue (costs `gift_credits`). */
  gift?: GiftId;
  clientId: string;
}

/** What a send stores: a text, a gift, or a photo already processed and written (its key and size). */
type Content =
  | { kind: 'text'; body: string }
  | { kind: 'gift'; gift: GiftId }
  | { kind: 'photo'; photo: { storageKey: string; width: number; height: number } };

type Target = Pick<SendInput, 'conversation' | 'profile' | 'clientId'>;

async function siteOf(ctx: AppContext, me: Sender['profile']) {
  const site = await ctx.sites.get(me.siteId);
  if (!site) throw new Error(`Site ${me.siteId} of profile ${me.id} is missing`);
  return site;
}

const notEnoughCredits = (credits: number, price: number) =>
  new HttpError(402, CHAT_ERRORS.notEnoughCredits, 'Not enough credits to send this message', {
    credits,
    price,
    message_key: 'chat.errors.notEnoughCredits',
  });

/**
 * Sends a text message or a gift (spec §4, §5; DESIGN: chat is a durable log). In one unit of work: the
 * conversation's row is locked (started first when the member writes to a profile for the first time, within the
 * free members' two), the rules are checked, the price (the site's `message_credits`, or `gift_credits` for a
 * gift) is spent with the key `msg:<sender>:<client id>`, the next sequence is taken and the message stored;
 * message.created follows the commit. A send repeated with the same client id stores and charges nothing more and
 * answers the first message.
 */
export async function sendMessage(ctx: AppContext, auth: Sender, input: SendInput): Promise<SendMessageResponse> {
  const me = auth.profile;
  const site = await siteOf(ctx, me);
  let content: Content;
  if (input.gift !== undefined) {
    content = { kind: 'gift', gift: input.gift };
  } else {
    const body = input.body ?? '';
    if (body.trim() === '')
      throw new HttpError(400, 'validation_failed', 'Write a message first', { field: 'body', message_key: 'chat.errors.empty' });
    if (Array.from(body).length > site.messageLength) {
      throw new HttpError(400, 'validation_failed', `A message has at most ${site.messageLength} characters`, {
        field: 'body',
        message_key: 'chat.errors.tooLong',
        max: site.messageLength,
      });
    }
    content = { kind: 'text', body };
  }
  if (input.profile === me.id) throw badRequest('profile', 'You cannot write to yourself');

  // A send repeated with its client id is answered inside the unit of work, once the conversation is locked.
  const price = content.kind === 'gift' ? site.giftCredits : site.messageCredits;
  return (await store(ctx, auth, input, content, price)).response;
}

/**
 * Sends a photo message (spec §1: images are possible in the chat), costing the site's `photo_credits`. The file
 * goes through the photo pipeline (header checks, sharp, metadata dropped, the bounded queue) before the unit of
 * work, which is that of any send; when nothing is stored (refused, or a retry that another request stored first)
 * the files are removed. The recipient sees it blurred until they reveal it (revealPhoto).
 */
export async function sendPhoto(ctx: AppContext, auth: Auth, input: Target & { buffer: Buffer }): Promise<SendMessageResponse> {
  const me = auth.profile;
  const site = await siteOf(ctx, me);
  if (input.profile === me.id) throw badRequest('profile', 'You cannot write to yourself');
  const first = await findMessageByClientId(dbOf(ctx), me.id, input.clientId);
  if (first) return answer(ctx, auth, first);
  // Cheap refusals before a core spends a second on the picture (the unit of work checks all of them again).
  if (input.conversation !== undefined) {
    const conversation = await findConversation(dbOf(ctx), input.conversation, me.id);
    if (!conversation || conversation.siteId !== me.siteId) throw notYours();
  }
  const price = site.photoCredits;
  const balance = await findCredits(dbOf(ctx), auth.user.id);
  if (balance < price) throw notEnoughCredits(balance, price);

  const owner = { userId: auth.user.id, profileId: me.id };
  const photo = await processChatPhoto(ctx, owner, input.buffer);
  try {
    const sent = await store(ctx, auth, input, { kind: 'photo', photo }, price);
    if (sent.stored?.photoKey !== photo.storageKey) await removeChatPhoto(ctx, owner, photo.storageKey);
    return sent.response;
  } catch (error) {
    await removeChatPhoto(ctx, owner, photo.storageKey);
    throw error;
  }
}

/** What a send stored: the answer, and the row this call wrote (null when a retry answered an earlier one). */
type Stored = { response: SendMessageResponse; stored: MessageRow | null };

/**
 * The unit of work of every send. A send to a conversation that exists joins the process's queue of sends
 * (sendQueueOf), which stores those that wait together; the first message to a profile, and a send inside a
 * caller's unit of work, is stored on its own (storeOne).
 */
function store(ctx: AppContext, auth: Sender, input: Target, content: Content, price: number): Promise<Stored> {
  const conversationId = input.conversation;
  if (conversationId === undefined || inUnitOfWork(ctx)) return storeOne(ctx, auth, input, content, price);
  return new Promise((resolve, reject) => {
    sendQueueOf(ctx).add({ ctx, auth, input, conversationId, content, price, resolve, reject });
  });
}

/** A send waiting in its process's queue. */
interface QueuedSend {
  ctx: AppContext;
  auth: Sender;
  input: Target;
  conversationId: number;
  content: Content;
  price: number;
  resolve: (stored: Stored) => void;
  reject: (error: unknown) => void;
}

/** Sends stored together at most (their statements grow with them; 100 keep a batch's unit of work short). */
const BATCH_LIMIT = 100;
/** Batches under way at once: while one commits, the next is locking and spending. */
const BATCHES_AT_ONCE = 2;

const sendBatches = new WeakMap<Executor, Batches<QueuedSend>>();

/**
 * The sends of this process to conversations that exist on this database, stored as group commits (lib/batches.ts):
 * one a conversation in a batch, so that a conversation's sends keep their order, in eight statements whatever their
 * number where each on its own takes eight (docs/decisions.md, "Chat throughput: sends stored together").
 */
function sendQueueOf(ctx: AppContext): Batches<QueuedSend> {
  // Outside a unit of work (the only place sends queue), the database itself.
  const db = dbOf(ctx);
  let queue = sendBatches.get(db);
  if (!queue) {
    queue = createBatches({ run: storeBatch, limit: BATCH_LIMIT, atOnce: BATCHES_AT_ONCE, keyOf: (send) => send.conversationId });
    sendBatches.set(db, queue);
  }
  return queue;
}

/** A queued send stored or answered on its own. */
function settle(send: QueuedSend): Promise<void> {
  send.ctx.metrics.chatSends('single', 1);
  return storeOne(send.ctx, send.auth, send.input, send.content, send.price).then(send.resolve, send.reject);
}

/**
 * Stores a batch of sends (one a conversation) in one unit of work, as storeOne stores each: the conversations
 * locked with their partners and the senders' earlier sends under the same client ids (one statement), the prices
 * spent (credits' spendMany), the messages appended, the partners' notices enqueued and message.created published
 * after the commit. Only sends that go through are stored here: a send that storeOne would refuse or answer from
 * before (not the sender's conversation, a block, not enough credits, a retry, a free message) is left to storeOne
 * after the batch, so every refusal and every retry is answered by the one path that answers them. A retry committed
 * elsewhere while the batch waited for its locks shows as its key met in the ledger: the batch, rolled back, runs
 * once more and sees it. A batch that fails as a whole otherwise (a deadlock) wrote nothing, and each of its sends
 * goes to storeOne.
 */
async function storeBatch(batch: QueuedSend[], attempt = 1): Promise<void> {
  const [first] = batch;
  if (batch.length === 1) return settle(first);
  const ctx = first.ctx;
  let alone: QueuedSend[] = [];
  try {
    const stored = await withTransaction(ctx, async (tx) => {
      alone = [];
      const locked = await lockConversationsForSends(
        tx,
        batch.map((send) => ({
          conversationId: send.conversationId,
          senderProfileId: send.auth.profile.id,
          clientId: send.input.clientId,
        })),
      );
      const ready = batch.flatMap((send) => {
        const row = locked.get(send.conversationId);
        const goesThrough =
          row !== undefined &&
          row.conversation.siteId === send.auth.profile.siteId &&
          row.storedMessageId === null &&
          send.price > 0 &&
          !refusalOf(row.partner, send.auth);
        if (!goesThrough) alone.push(send);
        return goesThrough ? [{ send, ...row }] : [];
      });
      if (ready.length === 0) return [];
      const paid = await spendMany(
        ctx,
        ready.map(({ send }) => ({
          userId: send.auth.user.id,
          siteId: send.auth.profile.siteId,
          amount: send.price,
          reason: send.content.kind === 'text' ? 'message' : send.content.kind,
          idempotencyKey: `msg:${send.auth.profile.id}:${send.input.clientId}`,
        })),
      );
      const paying = ready.flatMap((item, i) => {
        const result = paid[i];
        if ('insufficient' in result) alone.push(item.send);
        return 'insufficient' in result ? [] : [{ ...item, credits: result.balance }];
      });
      const rows = await appendMessages(
        tx,
        paying.map(({ send, conversation }) => ({
          ...messageValues(send.auth.profile.id, send.input, send.content, send.price),
          conversationId: conversation.id,
        })),
      );
      const sent = paying.map((item, i) => ({
        ...item,
        message: rows[i],
        partnerId: partnerOf(item.conversation, item.send.auth.profile.id),
      }));
      await noticeMessages(
        ctx,
        sent.map(({ send, conversation, message, partnerId }) => ({
          recipientProfileId: partnerId,
          senderProfileId: send.auth.profile.id,
          conversationId: conversation.id,
          isNewConversation: message.seq === 1,
        })),
      );
      for (const { send, conversation, message, partnerId, partner } of sent)
        publishCreated(ctx, send.auth.profile, conversation.id, message, partnerId, partner.isFictional);
      return sent.map(({ send, message, credits }) => ({
        send,
        stored: { response: { message: presentMessage(message, send.auth.profile.id), credits }, stored: message },
      }));
    });
    ctx.metrics.chatSends('batched', stored.length);
    for (const { send, stored: result } of stored) send.resolve(result);
  } catch (error) {
    // A retry's key already in the ledger: its message was committed while the batch waited for the lock, after
    // the statement that looked for it had begun. Once more, and the batch sees it and leaves that send out.
    if (error instanceof CreditKeyTaken && attempt === 1) return storeBatch(batch, 2);
    ctx.metrics.chatBatchFailed();
    reportBatchFailure('chat sends', batch.length, error);
    alone = batch;
  }
  await Promise.all(alone.map(settle));
}

/** The error storeOne answers a send to this partner with, or null when the rules let it through. */
function refusalOf(partner: PartnerRow, auth: Sender): HttpError | null {
  const block = chatBlock(partner, { userStatus: auth.user.status });
  return block && refusal(block, partner);
}

/** The columns of a message a send stores, but for its conversation and sequence. */
function messageValues(senderProfileId: number, input: Target, content: Content, price: number) {
  return {
    senderProfileId,
    kind: content.kind,
    body: content.kind === 'text' ? content.body : '',
    gift: content.kind === 'gift' ? content.gift : null,
    photoKey: content.kind === 'photo' ? content.photo.storageKey : null,
    photoWidth: content.kind === 'photo' ? content.photo.width : null,
    photoHeight: content.kind === 'photo' ? content.photo.height : null,
    clientId: input.clientId,
    price,
  };
}

/** message.created for a message just stored, published once its unit of work commits. */
function publishCreated(
  ctx: AppContext,
  me: Sender['profile'],
  conversationId: number,
  message: MessageRow,
  partnerId: number,
  fictional: boolean,
): void {
  ctx.events.publish({
    type: 'message.created',
    siteId: me.siteId,
    conversationId,
    messageId: message.id,
    seq: message.seq,
    senderProfileId: me.id,
    recipientProfileId: partnerId,
    fictional,
  });
}

/** One send in a unit of work of its own (or the caller's); `stored` is the row this call wrote (null when a retry answered an earlier one). */
async function storeOne(ctx: AppContext, auth: Sender, input: Target, content: Content, price: number): Promise<Stored> {
  const me = auth.profile;
  return withTransaction(ctx, async (tx) => {
    const locked =
      input.conversation !== undefined
        ? await lockConversationWithPartner(tx, input.conversation, me.id)
        : await openConversation(tx, auth, input.profile as number);
    if (!locked || locked.conversation.siteId !== me.siteId) throw notYours();
    const { conversation, partner } = locked;
    // A send with this client id that committed while we waited for the lock.
    const again = await findMessageByClientId(tx, me.id, input.clientId);
    if (again) return { response: await answer(ctx, auth, again), stored: null };

    const partnerId = partnerOf(conversation, me.id);
    const refused = refusalOf(partner, auth);
    if (refused) throw refused;

    let credits: number;
    if (price > 0) {
      const paid = await spend(ctx, {
        userId: auth.user.id,
        siteId: me.siteId,
        amount: price,
        reason: content.kind === 'text' ? 'message' : content.kind,
        idempotencyKey: `msg:${me.id}:${input.clientId}`,
      });
      if ('insufficient' in paid) throw notEnoughCredits(await findCredits(tx, auth.user.id), price);
      credits = paid.balance;
    } else {
      credits = await findCredits(tx, auth.user.id);
    }

    const message = await appendMessage(tx, sideOf(conversation, me.id), {
      ...messageValues(me.id, input, content, price),
      conversationId: conversation.id,
    });
    // The partner's mail and push, if they are away and want them: enqueued with the message, or not at all.
    await noticeMessage(ctx, {
      recipientProfileId: partnerId,
      senderProfileId: me.id,
      conversationId: conversation.id,
      isNewConversation: message.seq === 1,
    });
    // Inside the unit of work: published once it has committed, never when it rolls back.
    publishCreated(ctx, me, conversation.id, message, partnerId, partner.isFictional);
    return { response: { message: presentMessage(message, me.id), credits }, stored: message };
  });
}

/**
 * The answer to a send that was stored before: its message and my balance now. Its message.created goes out again
 * (the live frames name a sequence, so a second one changes nothing for a client that has it): a send is retried
 * when its first answer was lost, and so may have been the event, with a process killed between the commit and
 * the publish; without this the partner's open chat would not hear of the message until the next one.
 */
async function answer(ctx: Pick<AppContext, 'db' | 'events'>, auth: Sender, row: MessageRow): Promise<SendMessageResponse> {
  const conversation = await findConversation(dbOf(ctx), row.conversationId, auth.profile.id);
  if (conversation) {
    const partnerId = partnerOf(conversation, auth.profile.id);
    const partner = await findPartner(dbOf(ctx), partnerId, auth.profile.id);
    ctx.events.publish({
      type: 'message.created',
      siteId: conversation.siteId,
      conversationId: conversation.id,
      messageId: row.id,
      seq: row.seq,
      senderProfileId: auth.profile.id,
      recipientProfileId: partnerId,
      fictional: partner?.isFictional ?? false,
    });
  }
  return { message: presentMessage(row, auth.profile.id), credits: await findCredits(dbOf(ctx), auth.user.id) };
}

/**
 * The conversation with a profile, locked, and the profile as a partner; the conversation is started when there is
 * none. The profile must be one the member could be shown (same site, active, account not deleted, not invisible
 * unless it wrote to the member first) or it is a 404; a block either way is its own error. A free member starts
 * at most FREE_CONVERSATION_LIMIT conversations (every conversation they ever started counts, removed ones too, so
 * removing one does not give a new one).
 */
async function openConversation(
  tx: Executor,
  auth: Sender,
  profileId: number,
): Promise<{ conversation: ConversationRow; partner: PartnerRow } | undefined> {
  const me = auth.profile;
  const partner = await findPartner(tx, profileId, me.id);
  if (!partner || partner.siteId !== me.siteId || partner.userStatus === 'deleted') throw notFound('This profile could not be found');
  if (partner.blockedMe || partner.blockedByMe) throw refusal(partner.blockedMe ? 'blocked_by_partner' : 'blocked_partner', partner);
  const existing = await findPairConversation(tx, me.id, profileId);
  if (existing) return lockConversationWithPartner(tx, existing.id, me.id);
  if (partner.status !== 'active' || partner.hiddenFromMe) throw notFound('This profile could not be found');

  await lockStarts(tx, me.id);
  if (!auth.user.paidUser && (await countStarted(tx, me.id)) >= FREE_CONVERSATION_LIMIT) {
    throw new HttpError(403, CHAT_ERRORS.conversationLimit, `Free members can start at most ${FREE_CONVERSATION_LIMIT} conversations`, {
      limit: FREE_CONVERSATION_LIMIT,
      message_key: 'chat.errors.conversationLimit',
    });
  }
  const made = await insertConversation(tx, { siteId: me.siteId, starter: me.id, other: profileId });
  const id = made ?? (await findPairConversation(tx, me.id, profileId))?.id;
  return id === undefined ? undefined : lockConversationWithPartner(tx, id, me.id);
}

/**
 * An operator's answer as a fictional profile (the console's inbox; a person writes it, nothing answers by
 * itself): a text message from the fictional side of one of its conversations, in the unit of work of any send
 * (the row locked, the rules checked, the next sequence, the member's mail and push, message.created after the
 * commit), so it reaches the member as every message does, labelled fictional by the profile it comes from. It
 * costs nothing: a fictional profile has no account and no credits, and the member pays only for their own
 * messages. A retry with the same client id answers the message stored first. Null when the conversation has no
 * fictional side with this id.
 */
export async function sendAsFictional(
  ctx: AppContext,
  input: { conversationId: number; fictionalProfileId: number; body: string; clientId: string },
): Promise<MessageRow | null> {
  const body = input.body;
  if (body.trim() === '') throw badRequest('text', 'Write a message first');
  return withTransaction(ctx, async (tx) => {
    const conversation = await lockConversation(tx, input.conversationId, input.fictionalProfileId);
    if (!conversation) return null;
    const site = await ctx.sites.get(conversation.siteId);
    if (!site) throw new Error(`Site ${conversation.siteId} of conversation ${conversation.id} is missing`);
    if (Array.from(body).length > site.messageLength) {
      throw new HttpError(400, 'validation_failed', `A message has at most ${site.messageLength} characters`, {
        field: 'text',
        max: site.messageLength,
      });
    }
    const again = await findMessageByClientId(tx, input.fictionalProfileId, input.clientId);
    if (again) return again;
    const memberId = partnerOf(conversation, input.fictionalProfileId);
    const member = await findPartner(tx, memberId, input.fictionalProfileId);
    if (!member) return null;
    const block = chatBlock(member, { userStatus: 'active' });
    const refused = block && refusal(block, member);
    if (refused) throw refused;

    // The operator read what they answer: the fictional side's unread count and read sequence follow.
    await markRead(tx, conversation.id, input.fictionalProfileId);
    const message = await appendMessage(tx, sideOf(conversation, input.fictionalProfileId), {
      conversationId: conversation.id,
      senderProfileId: input.fictionalProfileId,
      kind: 'text',
      body,
      gift: null,
      photoKey: null,
      photoWidth: null,
      photoHeight: null,
      clientId: input.clientId,
      price: 0,
    });
    await noticeMessage(ctx, {
      recipientProfileId: memberId,
      senderProfileId: input.fictionalProfileId,
      conversationId: conversation.id,
      isNewConversation: message.seq === 1,
    });
    ctx.events.publish({
      type: 'message.created',
      siteId: conversation.siteId,
      conversationId: conversation.id,
      messageId: message.id,
      seq: message.seq,
      senderProfileId: input.fictionalProfileId,
      recipientProfileId: memberId,
      fictional: true,
    });
    return message;
  });
}

/**
 * The member's unread messages in all their chats (the user object's num_unread_messages): what chats.php adds up,
 * read from the counters without the list.
 */
export function countUnread(ctx: Pick<AppContext, 'db'>, profile: { id: number; siteId: number }): Promise<number> {
  return sumUnread(dbOf(ctx), profile.id, profile.siteId);
}

/**
 * The account purge: the member's conversations and every message in them go, for the other side too (what the
 * member wrote is their personal data; a chat of one is no chat). Fourteen days after the deletion, as the rest.
 */
export async function purgeMember(ctx: DbContext, member: { profileId: number | null }): Promise<void> {
  const { profileId } = member;
  if (profileId !== null) await withTransaction(ctx, (tx) => deleteConversationsOf(tx, profileId));
}

/**
 * Moderation rejects a message (the moderation console calls this): it shows as rejected, without its text, to
 * both members, and its price goes back to the sender as a new ledger row (`refund:<message id>`), in the same
 * transaction. Rejecting it again changes nothing. False when there is no such message or it was rejected before.
 */
export async function rejectMessage(ctx: AppContext, messageId: number): Promise<boolean> {
  return withTransaction(ctx, async (tx) => {
    const rejected = await markRejected(tx, messageId);
    if (!rejected) return false;
    if (rejected.price > 0 && rejected.userId !== null && rejected.siteId !== null) {
      await credit(ctx, {
        userId: rejected.userId,
        siteId: rejected.siteId,
        amount: rejected.price,
        reason: 'refund',
        idempotencyKey: `refund:${messageId}`,
      });
    }
    return true;
  });
}

/** For moderation: a conversation's messages around one (10 before and after), with their senders' names. */
export function conversationAround(ctx: DbContext, conversationId: number, messageId: number) {
  return listMessagesAround(dbOf(ctx), conversationId, messageId, 10);
}
