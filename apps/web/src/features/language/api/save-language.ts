import type { Locale } from '@amora/contracts/core';
import { api } from '@/lib/api-client';

/** A member's language: the one their mails and pushes come in (the language picker and /lang-config save it). */
export const saveLanguage = (language: Locale) => api('PUT /api/user.php', { body: { language } });
