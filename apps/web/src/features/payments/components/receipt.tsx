import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { countryName } from '@/shared/site/country-name';
import { useLocale } from '@/shared/site/use-locale';
import type { Order, Receipt } from '../api/types';
import { useIntlLocale, useMoney, usePercent } from './money';
import { useMethodName } from './parts';

/**
 * The receipt of a paid order: the operating company's details (name, address, trade register, VAT numbers),
 * its number and date, the lines and the total. Printing shows only the receipt (payments.css).
 */
export function ReceiptView({ order, receipt }: { order: Order; receipt: Receipt }) {
  const { t } = useTranslation('payments');
  const { t: tCommon } = useTranslation();
  const money = useMoney();
  const intlLocale = useIntlLocale();
  const locale = useLocale();
  const methodName = useMethodName();
  const percent = usePercent();
  const company = receipt.company;
  const date = new Intl.DateTimeFormat(intlLocale, { dateStyle: 'long' }).format(new Date(receipt.date));
  return (
    <section className="pay-receipt" aria-labelledby="pay-receipt-title" data-testid="receipt">
      <header className="pay-receipt-head">
        <div>
          <h2 className="h5 mb-1" id="pay-receipt-title">
            {t('transactions.receipt.title')}
          </h2>
          <span className="text-body-secondary small">{receipt.site}</span>
        </div>
        <Button variant="outline-dark" size="sm" className="pay-no-print" onClick={() => window.print()}>
          {t('transactions.receipt.print')}
        </Button>
      </header>
      <div className="pay-receipt-grid">
        <address className="mb-0" data-testid="receipt-company">
          <strong>{company.name}</strong>
          <br />
          {company.address}
          <br />
          {company.city}, {countryName(company.country, locale)}
          {company.kvk && (
            <>
              <br />
              {t('transactions.receipt.kvk')}
              {tCommon('punctuation.colon')}
              {company.kvk}
            </>
          )}
          {company.vat_numbers.length > 0 && (
            <>
              <br />
              {t('transactions.receipt.vat')}
              {tCommon('punctuation.colon')}
              {company.vat_numbers.join(', ')}
            </>
          )}
        </address>
        <dl className="pay-receipt-facts mb-0">
          <div>
            <dt>{t('transactions.receipt.number')}</dt>
            <dd data-testid="receipt-number">{receipt.number}</dd>
          </div>
          <div>
            <dt>{t('transactions.receipt.date')}</dt>
            <dd>{date}</dd>
          </div>
          <div>
            <dt>{t('transactions.receipt.paidWith')}</dt>
            <dd>{methodName(receipt.method)}</dd>
          </div>
        </dl>
      </div>
      <table className="pay-table pay-receipt-lines mb-0">
        <tbody>
          {receipt.lines.map((line) => (
            <tr key={line.kind}>
              <td>
                {line.kind === 'package'
                  ? t('credits.packageCredits', { count: line.credits ?? order.credits })
                  : line.kind === 'discount'
                    ? t('transactions.receipt.discountLine', { percent: percent(line.percentage ?? 0) })
                    : t('transactions.receipt.feeLine', { method: methodName(line.method ?? receipt.method) })}
              </td>
              <td className="text-end">{money(line.amount, receipt.currency)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t('transactions.receipt.total')}</th>
            <td className="text-end fw-bold" data-testid="receipt-total">
              {money(receipt.total, receipt.currency)}
            </td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}
