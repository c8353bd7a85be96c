import type { ChatReportInput } from '@amora/contracts';
import { api } from '@/lib/api-client';

export const postChatReport = (input: ChatReportInput) => api('POST /api/chat-report.php', { body: input });
