import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { reportProfile } from '../profiles/profiles.service';
import { changeReadReceipts, reportFromChat } from './chat-safety.service';

/** Safety in the chat: reporting a message or a member, and the read-receipts setting. */
export const chatSafetyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.route({
    ...endpoint('POST /api/chat-report.php'),
    handler: async (request) => {
      const auth = requireAuth(request);
      const { conversation, profile, message, reason, text } = request.body;
      const reference =
        profile !== undefined
          ? await reportProfile(ctx, request.site, auth, { profile, reason, text })
          : await reportFromChat(ctx, auth, { conversation: conversation as number, message, reason, text });
      return { ok: true as const, reference };
    },
  });

  app.route({
    ...endpoint('POST /api/read-receipts.php'),
    handler: async (request) => {
      await changeReadReceipts(ctx, requireAuth(request), request.body.enabled);
      return { ok: true as const, enabled: request.body.enabled };
    },
  });
};
