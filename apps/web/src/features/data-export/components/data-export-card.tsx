import { DATA_EXPORT_DAYS, DATA_EXPORT_LATEST_PATH, LOCALE_INFO, type Locale } from '@amora/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { SkeletonRegion, SkeletonText } from '@/components/ui/skeleton';
import { errorText } from '@/lib/error-text';
import { useTimeZone } from '@/lib/page-request';
import { useSettings } from '@/shared/site/api/get-settings';
import { useLocale } from '@/shared/site/use-locale';
import { dataExportQuery, useRequestDataExport } from '../api/data-export';

/** A moment as a date and time in the page's language and the member's time zone ("6 December 2026, 14:30"). */
function formatUntil(iso: string, locale: Locale, timeZone: string | undefined): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(LOCALE_INFO[locale].iso, { dateStyle: 'long', timeStyle: 'short', timeZone }).format(date);
}

/**
 * Settings: "Download your data" (GDPR art. 15 and 20). Nothing asked for, expired or failed: a button to ask;
 * being prepared: the mail will bring the link; ready: a download link, until its date (the mail's link too).
 */
export function DataExportCard() {
  const { t } = useTranslation();
  const settings = useSettings();
  const locale = useLocale();
  const timeZone = useTimeZone();
  const status = useQuery(dataExportQuery());
  const request = useRequestDataExport();
  const data = status.data;
  const canAsk = data && (data.status === 'none' || data.status === 'expired' || data.status === 'failed');
  return (
    <Card title={t('dataExport.title')} className="mb-4" testId="settings-data-export">
      <p>{t('dataExport.intro', { site: settings.name })}</p>
      {status.error ? (
        <p className="alert alert-danger mb-0" role="alert">
          {errorText(t, status.error)}
        </p>
      ) : !data ? (
        <SkeletonRegion label={t('common.loading')}>
          <SkeletonText lines={1} />
        </SkeletonRegion>
      ) : (
        <>
          {data.status === 'pending' && (
            <p className="alert alert-info mb-0" role="status" data-testid="data-export-pending">
              {t('dataExport.pending')}
            </p>
          )}
          {data.status === 'ready' && data.expires_at && (
            <div data-testid="data-export-ready">
              <p className="mb-2">{t('dataExport.ready', { date: formatUntil(data.expires_at, locale, timeZone) })}</p>
              <a className="btn btn-dark btn-sm" href={DATA_EXPORT_LATEST_PATH} download data-testid="data-export-download">
                {t('dataExport.download')}
              </a>
            </div>
          )}
          {data.status === 'expired' && (
            <p className="text-body-secondary" data-testid="data-export-expired">
              {t('dataExport.expired')}
            </p>
          )}
          {data.status === 'failed' && (
            <p className="alert alert-warning" data-testid="data-export-failed">
              {t('dataExport.failed')}
            </p>
          )}
          {request.error && (
            <p className="alert alert-danger" role="alert">
              {errorText(t, request.error)}
            </p>
          )}
          {canAsk && (
            <>
              <p className="text-body-secondary small">{t('dataExport.validity', { count: DATA_EXPORT_DAYS })}</p>
              <Button variant="outline-dark" size="sm" isLoading={request.isPending} onClick={() => request.mutate()}>
                {t('dataExport.request')}
              </Button>
            </>
          )}
        </>
      )}
    </Card>
  );
}
