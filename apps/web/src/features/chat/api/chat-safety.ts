import type { ChatReportInput, ChatReportResponse } from '@amora/contracts';
import { api } from '@/lib/api-client';

export const postChatReport = (input: ChatReportInput) => api<ChatReportResponse>('/api/chat-report.php', { method: 'POST', body: input });
