import { session } from '@/lib/storage';

/**
 * The first message a visitor started on a member landing (/members/{id}/landing3), carried to the signup about
 * that profile (/members/{id}/signup) in this tab's sessionStorage: never in the address, where it would reach the
 * server's logs and the browser's history.
 */
const keyOf = (profileId: number) => `amora.landing-message.${profileId}`;

export function keepLandingMessage(profileId: number, text: string): void {
  session.set(keyOf(profileId), text.trim());
}

/** The message kept for this profile, or '' when there is none. */
export function landingMessageFor(profileId: number): string {
  return session.get(keyOf(profileId)) ?? '';
}
