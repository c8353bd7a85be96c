import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaymentMethod } from '../api/types';
import { useMoney } from './money';
import { MethodLogo, useMethodName } from './parts';

/** The methods of the checkout, one radio each: the logo, the name, and the fee (or that a mandate comes first). */
export function MethodList({
  methods,
  selected,
  onSelect,
}: {
  methods: PaymentMethod[];
  selected: string | null;
  onSelect: (name: string) => void;
}) {
  const { t } = useTranslation('payments');
  const money = useMoney();
  const methodName = useMethodName();
  const name = useId();
  return (
    <fieldset className="pay-methods" data-testid="methods">
      <legend className="h6 mb-2">{t('checkout.method')}</legend>
      {methods.map((method) => (
        <label
          key={method.name}
          className={`pay-method${selected === method.name ? ' is-selected' : ''}`}
          data-testid={`method-${method.name}`}
        >
          <input
            type="radio"
            className="form-check-input"
            name={name}
            value={method.name}
            checked={selected === method.name}
            onChange={() => onSelect(method.name)}
          />
          <MethodLogo name={method.name} />
          <span className="pay-method-name">{methodName(method.name)}</span>
          <span className="pay-method-fee">
            {method.needs_mandate
              ? t('checkout.mandateNeeded')
              : method.fee > 0
                ? t('checkout.fee', { fee: money(method.fee, method.currency) })
                : t('checkout.noFee')}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
