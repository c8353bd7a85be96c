import { chatReportResponseSchema, chatReportSchema, readReceiptsResponseSchema, readReceiptsSchema } from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { reportProfile } from '../profiles/profiles.service';
import { changeReadReceipts, reportFromChat } from './chat-safety.service';

/** Safety in the chat: reporting a message or a member, and the read-receipts setting. */
export const chatSafetyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.post(
    '/api/chat-report.php',
    {
      schema: {
        tags: ['chat'],
        summary: 'Report to moderation the other member of a chat of mine, one of their messages, or a profile',
        body: chatReportSchema,
        response: { 200: chatReportResponseSchema },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { conversation, profile, message, reason, text } = request.body;
      const reference =
        profile !== undefined
          ? await reportProfile(ctx, request.site, auth, { profile, reason, text })
          : await reportFromChat(ctx, auth, { conversation: conversation as number, message, reason, text });
      return { ok: true as const, reference };
    },
  );

  app.post(
    '/api/read-receipts.php',
    {
      schema: {
        tags: ['chat'],
        summary: 'Turn my read receipts on or off (off: the other side sees no "Seen" from me, and I none from them)',
        body: readReceiptsSchema,
        response: { 200: readReceiptsResponseSchema },
      },
    },
    async (request) => {
      await changeReadReceipts(ctx, requireAuth(request), request.body.enabled);
      return { ok: true as const, enabled: request.body.enabled };
    },
  );
};
