import { useNavigate } from 'react-router';
import { useLocalePath } from '@/shared/site/use-locale';
import { checkoutRedirect } from '../api/payments';
import type { StartPaymentResponse } from '../api/types';

/** Where a started payment goes on: the provider's checkout, or straight to its result (a recurring payment). */
export function useContinuePayment(): (answer: StartPaymentResponse) => void {
  const navigate = useNavigate();
  const localize = useLocalePath();
  return (answer: StartPaymentResponse) => {
    if (answer.checkout_url) checkoutRedirect.go(answer.checkout_url);
    else navigate(localize(`/transactions/${answer.order.id}`));
  };
}
