import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton, SkeletonRegion } from '@/components/ui/skeleton';
import { errorText } from '@/lib/error-text';
import { LocalLink } from '@/shared/site/local-link';
import { usePageTitle } from '@/shared/site/use-page-title';
import { chooseUnsubscribe, unsubscribeQuery } from '../api/notifications';

/**
 * /unsubscribe?t=… : where a mail's unsubscribe link leads, without a login. Opening it changes nothing (mail
 * scanners open every link); the member chooses to stop that type of mail, or all mail that is not essential.
 */
export function Component() {
  const { t } = useTranslation();
  usePageTitle(t('notifications.unsubscribe.title'));
  const [search] = useSearchParams();
  const token = search.get('t') ?? '';
  const info = useQuery({ ...unsubscribeQuery(token), enabled: token !== '' });
  const choose = useMutation({ mutationFn: chooseUnsubscribe });
  const typeLabel = info.data?.type ? t(`notifications.types.${info.data.type}.label`) : '';

  let body: ReactNode;
  if (token === '' || info.isError) {
    body = (
      <p className="mb-0" data-testid="unsubscribe-invalid">
        {t('notifications.unsubscribe.invalid')} <LocalLink to="/notifications">{t('notifications.unsubscribe.manage')}</LocalLink>
      </p>
    );
  } else if (!info.data) {
    body = (
      <SkeletonRegion label={t('notifications.loading')}>
        <Skeleton width="80%" />
        <Skeleton width="60%" />
      </SkeletonRegion>
    );
  } else if (choose.isSuccess || (info.data.done && !choose.isPending)) {
    const scope = choose.variables?.scope ?? 'all';
    body = (
      <div role="status" data-testid="unsubscribe-done">
        <p>{scope === 'type' ? t('notifications.unsubscribe.doneType', { type: typeLabel }) : t('notifications.unsubscribe.doneAll')}</p>
        <p className="mb-0">
          <LocalLink to="/notifications">{t('notifications.unsubscribe.manage')}</LocalLink>
        </p>
      </div>
    );
  } else {
    body = (
      <>
        <p>{t('notifications.unsubscribe.question', { type: typeLabel, site: info.data.site })}</p>
        {choose.isError && (
          <div className="alert alert-danger" role="alert">
            {errorText(t, choose.error)}
          </div>
        )}
        <div className="d-flex flex-column flex-sm-row gap-2 mb-3">
          <Button onClick={() => choose.mutate({ token, scope: 'type' })} isLoading={choose.isPending} testId="unsubscribe-type">
            {t('notifications.unsubscribe.onlyType', { type: typeLabel })}
          </Button>
          <Button
            variant="outline-dark"
            onClick={() => choose.mutate({ token, scope: 'all' })}
            isLoading={choose.isPending}
            testId="unsubscribe-all"
          >
            {t('notifications.unsubscribe.all')}
          </Button>
        </div>
        <p className="small text-body-secondary mb-0">{t('notifications.stopped.essential')}</p>
      </>
    );
  }
  return (
    <main id="main" className="container py-4 py-md-5" style={{ maxWidth: 620 }}>
      <h1 className="h3 mb-4">{t('notifications.unsubscribe.title')}</h1>
      <Card testId="unsubscribe">{body}</Card>
    </main>
  );
}
