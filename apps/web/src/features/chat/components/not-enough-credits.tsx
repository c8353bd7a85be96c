import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, buttonClass } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { LocalLink } from '@/shared/site/local-link';
import { useMinimumMessagePrice } from './message-price';

/** What was refused for want of credits: a message, a gift or a photo, each with its own price. */
export type SendKind = 'message' | 'gift' | 'photo';
export interface CreditsRefusal {
  credits: number;
  price: number;
  kind: SendKind;
}
const CREDITS_LEFT_KEYS = {
  message: 'chat.creditsLeft',
  gift: 'chat.creditsLeftGift',
  photo: 'chat.creditsLeftPhoto',
} as const;

/**
 * A send refused for want of credits: says so in the spec's words, how many credits are left and what a message
 * costs, and offers to buy credits (spec §8).
 */
export function NotEnoughCredits({ refusal, onClose }: { refusal: CreditsRefusal | null; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const minPrice = useMinimumMessagePrice();
  return (
    <Dialog isOpen={refusal !== null} onClose={onClose} labelledBy={titleId} size="sm" testId="not-enough-credits">
      <div className="modal-header border-0 pb-0">
        <h2 className="modal-title h5" id={titleId}>
          {t('chat.errors.notEnoughCredits')}
        </h2>
      </div>
      <div className="modal-body" data-testid="not-enough-credits-text">
        {refusal &&
          t(CREDITS_LEFT_KEYS[refusal.kind], {
            count: refusal.credits,
            // "10 credits", not a bare 10 that reads like money beside the price per message in brackets.
            price: t('chat.costCredits', { count: refusal.price }),
          })}
        {refusal && minPrice && ` (${t('chat.priceMoney', { amount: minPrice })})`}
      </div>
      <div className="modal-footer border-0 pt-0">
        <Button variant="light" onClick={onClose}>
          {t('chat.close')}
        </Button>
        <LocalLink to="/credits" className={buttonClass()} data-testid="buy-credits">
          {t('chat.buyCredits')}
        </LocalLink>
      </div>
    </Dialog>
  );
}
