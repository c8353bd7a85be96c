import type { SendMessageResponse } from '@amora/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { ApiRequestError } from '@/lib/api-client';
import { userQueryKey } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { chatsQueryKey } from '../api/chats';
import { GiftPicker } from './gift-picker';
import { type CreditsRefusal, NotEnoughCredits } from './not-enough-credits';
import { ReportDialog, type ReportTarget } from './report-dialog';

/** The profile a member page's chat actions are for. */
export interface ActionProfile {
  id: number;
  name: string;
}

/**
 * The Gift button of a profile page: the chat's gift picker for that profile, sent through messages.php as in the
 * chat (a new chat when there is none), with the chat's credit rules: the price shown, and too few credits answered
 * with the chat's dialog and the way to buy more. Once sent, the balance is the answer's and the chats list learns
 * of it.
 */
export function ProfileGiftButton({ profile, className }: { profile: ActionProfile; className?: string }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [isOpen, setIsOpen] = useState(false);
  const [refusal, setRefusal] = useState<CreditsRefusal | null>(null);
  const onSent = (answer: SendMessageResponse) => {
    queryClient.setQueryData(userQueryKey, (user: unknown) =>
      user && typeof user === 'object' && 'credits' in user ? { ...user, credits: answer.credits } : user,
    );
    void queryClient.invalidateQueries({ queryKey: chatsQueryKey });
    toast.show({ message: t('chat.giftSent', { name: profile.name }), variant: 'success' });
  };
  const onFailed = (error: unknown) => {
    if (!(error instanceof ApiRequestError) || error.code !== 'not_enough_credits') return;
    const { credits, price } = error.body as { credits?: number; price?: number };
    setRefusal({ credits: credits ?? 0, price: price ?? settings.gift_credits, kind: 'gift' });
  };
  return (
    <>
      <Button variant="outline-primary" className={className} onClick={() => setIsOpen(true)} testId="gift-button">
        {t('chat.gift')}
      </Button>
      <GiftPicker
        isOpen={isOpen}
        onClose={() => setIsOpen(false)}
        target={{ profile: profile.id }}
        partnerName={profile.name}
        onSent={onSent}
        onFailed={onFailed}
      />
      <NotEnoughCredits refusal={refusal} onClose={() => setRefusal(null)} />
    </>
  );
}

/** The Report button of a profile page: the chat's report dialog (its reasons and note) for that profile. */
export function ReportProfileButton({ profile }: { profile: ActionProfile }) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<ReportTarget | null>(null);
  return (
    <>
      <button
        type="button"
        className="btn btn-link btn-sm text-body-secondary profile-report"
        onClick={() => setTarget({ profile: profile.id, name: profile.name })}
        aria-label={t('chatSafety.report.memberLabel', { name: profile.name })}
        data-testid="profile-report"
      >
        {t('chatSafety.report.member')}
      </button>
      <ReportDialog target={target} onClose={() => setTarget(null)} />
    </>
  );
}
